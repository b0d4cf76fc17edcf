"""The daily challenge in chat: ``/scoundrel daily`` and its buttons (play), the scheduled post (post, glance,
count, schedule, post_settings; the day's par is made sure of through ``app.daily.par``) and Share posts finished
after the day (share_finish)."""
