"""Share posts kept while their day runs and taken once it is over (migration 0015), on both backends."""

from __future__ import annotations

import asyncio

from storage.shares import SharePost


async def test_share_posts_are_taken_after_their_day_oldest_first_in_bounded_batches(store):
    posts = [SharePost(100 + n, 50, 7, 3 if n < 3 else 4, "fr" if n else None) for n in range(5)]
    for post in reversed(posts):
        await store.keep_share_post(post)
    await store.keep_share_post(posts[0])  # the same message twice is kept once
    assert await store.take_share_posts(3, 10) == []  # day 3 still runs: nothing is taken
    assert await store.take_share_posts(4, 2) == posts[:2]  # bounded, oldest first
    assert await store.take_share_posts(5, 10) == posts[2:]  # day 4's too once day 5 began
    assert await store.take_share_posts(5, 10) == []  # each post is taken once


async def test_two_takers_never_get_the_same_post(store):
    for n in range(40):
        await store.keep_share_post(SharePost(1000 + n, 50, 7, 3, None))
    first, second = await asyncio.gather(store.take_share_posts(4, 30), store.take_share_posts(4, 30))
    taken = [post.message_id for post in first + second]
    assert sorted(taken) == list(range(1000, 1040))
