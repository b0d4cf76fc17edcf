"""The daily challenge in chat: ``/scoundrel daily`` and its buttons (play), the scheduled post (post, glance,
count, schedule), par solved ahead of time (par) and Share posts finished after the day (share_finish)."""
