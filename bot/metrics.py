"""What the bot counts for its operators, in Prometheus' format (served by ``bot/service.py`` at ``/metrics``).

One ``Metrics`` per bot, on its own registry, so two bots in one process (tests, a restart) never share counts.
Labels stay few and bounded: an interaction's kind is its command's name or its button's family (``sc:<name>``),
never an id.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

# Seconds from receiving a click to having answered it; Discord allows 3.
CLICK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.interactions = Counter("scoundrel_interactions", "Interactions received, by kind",
                                    ["kind"], registry=self.registry)
        self.click_seconds = Histogram("scoundrel_click_answer_seconds",
                                       "From receiving a game click to its answer being sent",
                                       buckets=CLICK_BUCKETS, registry=self.registry)
        self.moves = Counter("scoundrel_moves_committed", "Game moves committed to the database",
                             registry=self.registry)
        self.errors = Counter("scoundrel_errors", "Interactions that failed on the bot's side, by cause",
                              ["cause"], registry=self.registry)
        self.solver_queue = Gauge("scoundrel_solver_queue_length", "Solver requests waiting or running",
                                  registry=self.registry)
        from app.solver.worker import solver_jobs  # read when scraped: the queue lives in app/solver/worker.py

        self.solver_queue.set_function(solver_jobs)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


def interaction_kind(interaction) -> str:
    """A bounded label for an interaction: ``command:scoundrel play``, ``button:g``, ``autocomplete``…"""
    import discord

    if interaction.type is discord.InteractionType.application_command and interaction.command is not None:
        return f"command:{interaction.command.qualified_name}"
    if interaction.type is discord.InteractionType.component:
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        parts = custom_id.split(":")
        family = parts[1] if len(parts) > 1 and parts[0] == "sc" and parts[1].isalpha() and len(parts[1]) <= 12 \
            else "other"
        return f"button:{family}"
    return interaction.type.name
