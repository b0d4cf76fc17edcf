-- Running totals of counted dailies only (player_totals.rules_key = 'daily'), for the all-time daily board:
-- issue 5 ranks counted dailies only, while the '*' totals also hold normal games.
INSERT INTO player_totals (user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, average,
                           last_at)
SELECT user_id, gid, 'daily', count(*), sum(status = 'won'), count(score), coalesce(sum(score), 0), max(score),
       avg(score), max(ended_at)
FROM (
    SELECT user_id, guild_id AS gid, status, score, ended_at FROM games
        WHERE kind = 'daily' AND status <> 'playing' AND guild_id IS NOT NULL
    UNION ALL
    SELECT user_id, 0, status, score, ended_at FROM games
        WHERE kind = 'daily' AND status <> 'playing'
)
GROUP BY user_id, gid;
