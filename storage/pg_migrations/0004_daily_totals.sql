-- Schema version 4 on PostgreSQL: running totals of counted dailies only (rules_key 'daily').
INSERT INTO player_totals (user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, average,
                           last_at)
SELECT user_id, gid, 'daily', count(*), count(*) FILTER (WHERE status = 'won'), count(score),
       coalesce(sum(score), 0)::bigint, max(score), avg(score)::double precision, max(ended_at)
FROM (
    SELECT user_id, guild_id AS gid, status, score, ended_at FROM games
        WHERE kind = 'daily' AND status <> 'playing' AND guild_id IS NOT NULL
    UNION ALL
    SELECT user_id, 0, status, score, ended_at FROM games
        WHERE kind = 'daily' AND status <> 'playing'
) AS finished
GROUP BY user_id, gid;
