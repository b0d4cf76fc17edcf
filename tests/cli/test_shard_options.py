"""``run --shard-count N --shard-ids a,b``: checked before anything starts, and the sharded bot they select."""

from __future__ import annotations

import pytest

import bot.run
from bot.client import ScoundrelBot, ShardedScoundrelBot, make_bot
from bot.config import TOKEN_ENV, ConfigError, load_config
from tests.discord.harness import FAKE_TOKEN


@pytest.fixture
def started(monkeypatch, tmp_path):
    """Runs ``run`` up to the point where it would log in, and keeps the config it would have used."""
    seen = []

    async def fake_run(config, *, sync):
        seen.append(config)

    monkeypatch.setenv(TOKEN_ENV, FAKE_TOKEN)
    monkeypatch.delenv("SCOUNDREL_SHARD_COUNT", raising=False)
    monkeypatch.delenv("SCOUNDREL_SHARD_IDS", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(bot.run, "_run", fake_run)
    return seen


@pytest.mark.parametrize("args, expected", [
    (["--shard-count", "4", "--shard-ids", "0,4"], "error: --shard-ids: shard 4 does not exist; with 4 shards"),
    (["--shard-count", "4", "--shard-ids", "1,1"], "error: --shard-ids: shard 1 is listed twice"),
    (["--shard-ids", "0,1"], "error: --shard-ids needs --shard-count"),
    (["--shard-count", "0"], "error: --shard-count must be a positive whole number"),
    (["--shard-count", "two"], "error: --shard-count must be a positive whole number"),
    (["--shard-count", "2", "--shard-ids", "0,x"], "error: --shard-ids must be shard numbers separated by commas"),
    (["--shard-count", "2", "--shard-ids", "-1"], "error: --shard-ids must be shard numbers separated by commas"),
])
def test_bad_shard_options_exit_2_with_one_line_and_start_nothing(started, capsys, args, expected):
    assert bot.run.main(args) == 2
    out, err = capsys.readouterr()
    assert err.startswith(expected) and err.count("\n") == 1 and out == ""
    assert started == []


def test_shard_options_select_the_sharded_bot_with_those_shards(started):
    assert bot.run.main(["--shard-count", "4", "--shard-ids", "3,1"]) == 0
    config = started[-1]
    assert (config.shard_count, config.shard_ids) == (4, (1, 3))
    client = make_bot(config, par_solver=None)
    assert isinstance(client, ShardedScoundrelBot) and (client.shard_count, client.shard_ids) == (4, [1, 3])

    assert bot.run.main(["--shard-count", "2"]) == 0  # every shard in this one process
    client = make_bot(started[-1], par_solver=None)
    assert (client.shard_count, client.shard_ids) == (2, [0, 1])


def test_without_shard_options_the_bot_is_the_plain_one_connection_bot(started):
    assert bot.run.main([]) == 0
    config = started[-1]
    assert config.shard_count is None and config.shard_ids is None
    client = make_bot(config, par_solver=None)
    assert type(client) is ScoundrelBot and client.shard_count is None


def test_shards_from_the_config_file_or_the_environment(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[bot]\nshard_count = 6\nshard_ids = [4, 5]\n")
    config = load_config(path, {TOKEN_ENV: FAKE_TOKEN})
    assert (config.shard_count, config.shard_ids) == (6, (4, 5))
    config = load_config(path, {TOKEN_ENV: FAKE_TOKEN, "SCOUNDREL_SHARD_IDS": "0, 2"})
    assert (config.shard_count, config.shard_ids) == (6, (0, 2))
    with pytest.raises(ConfigError, match=r"^SCOUNDREL_SHARD_IDS: shard 9 does not exist"):
        load_config(path, {TOKEN_ENV: FAKE_TOKEN, "SCOUNDREL_SHARD_IDS": "9"})
    with pytest.raises(ConfigError, match=r"^\[bot\] shard_ids needs \[bot\] shard_count"):
        _ids_without_count(tmp_path)


def _ids_without_count(tmp_path):
    path = tmp_path / "ids.toml"
    path.write_text("[bot]\nshard_ids = [0]\n")
    return load_config(path, {TOKEN_ENV: FAKE_TOKEN})
