"""/healthz and /metrics over real HTTP on loopback, from the real bot under SimCord."""

from __future__ import annotations

import aiohttp
import pytest

from bot.config import ConfigError, load_config
from tests.discord.harness import FAKE_TOKEN, button_by_code, make_bot


@pytest.fixture
async def simcord_bot(db_path):
    bot = make_bot(db_path, service_address=("127.0.0.1", 0))  # any free port on loopback
    yield bot
    await bot.close()


async def get(world, path: str) -> tuple[int, str]:
    url = f"http://127.0.0.1:{world.bot.service.port}{path}"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def test_healthz_reports_the_gateway_and_the_database(world):
    status, body = await get(world, "/healthz")
    assert status == 200 and '"gateway": "connected"' in body and '"database": "ok"' in body
    await world.store.close()  # the database goes away under the bot
    status, body = await get(world, "/healthz")
    assert status == 503 and '"database": "down"' in body


async def test_metrics_count_interactions_moves_latency_and_errors(world):
    result = await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    message = result.response.message
    await world.alice.click(message, custom_id=button_by_code(message, "T0").custom_id)
    status, text = await get(world, "/metrics")
    assert status == 200
    lines = text.splitlines()
    assert 'scoundrel_interactions_total{kind="command:scoundrel play"} 1.0' in lines
    assert 'scoundrel_interactions_total{kind="button:g"} 1.0' in lines
    assert "scoundrel_moves_committed_total 1.0" in lines
    assert "scoundrel_click_answer_seconds_count 1.0" in lines
    assert "scoundrel_solver_queue_length 0.0" in lines  # nothing asked of the solver

    await world.store.close()
    await world.alice.click(world.channel.last_message,
                            custom_id=button_by_code(world.channel.last_message, "T1").custom_id)
    status, text = await get(world, "/metrics")
    assert 'scoundrel_errors_total{cause="database"} 1.0' in text.splitlines()


def test_the_address_is_validated_with_a_one_line_error(tmp_path):
    env = {"DISCORD_TOKEN": FAKE_TOKEN}
    assert load_config(None, {**env, "SCOUNDREL_SERVICE_ADDRESS": "127.0.0.1:9108"}).service_address == (
        "127.0.0.1", 9108)
    assert load_config(None, {**env, "SCOUNDREL_SERVICE_ADDRESS": "[::1]:80"}).service_address == ("::1", 80)
    assert load_config(None, env).service_address is None  # off by default
    with pytest.raises(ConfigError, match="SCOUNDREL_SERVICE_ADDRESS must be host:port"):
        load_config(None, {**env, "SCOUNDREL_SERVICE_ADDRESS": "localhost"})


async def test_the_solver_queue_length_is_reported_while_jobs_wait(world):
    import asyncio

    from app.solver.worker import close_par, run_in_solver
    from tests.solver.worker_jobs import timed_nap

    jobs = [asyncio.create_task(run_in_solver(timed_nap, 0.5, str(n), requester=n)) for n in (1, 2, 3)]
    try:
        await asyncio.sleep(0.1)  # real time: the first job is in the worker, two wait
        status, text = await get(world, "/metrics")
        assert "scoundrel_solver_queue_length 3.0" in text.splitlines()
        await asyncio.gather(*jobs)
        status, text = await get(world, "/metrics")
        assert "scoundrel_solver_queue_length 0.0" in text.splitlines()
    finally:
        await close_par()
