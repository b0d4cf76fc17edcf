"""The daily challenge: the calendar, the secret deal, share text and streaks (``days``); each day's deal and the
pars known (``deal``); the counted attempt and practice (``attempt``); sharing a result (``share``); streak
reminders (``reminders``)."""
