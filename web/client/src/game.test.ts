import { describe, expect, it } from "vitest";
import { type Answer, Game, MAX_QUEUED } from "./game";
import type { State } from "./types";

function at(version: number, id = 7): State {
  return {
    id, version, kind: "normal", day: null, status: "playing", over: false, score: null, headline: "", events: [],
    room_number: 1, health: 20, max_health: 20, weapon: null, kills: [], dungeon: 40, room: [], avoid: null,
    choices: [], par: null, coach: null, par_text: null, hinted: false, hint: true, review: false, share: false,
  };
}

/** A server that answers when told to: moves from the version it holds, else the current state (stale). */
class Server {
  version = 0;
  sent: { version: number; action: string }[] = [];
  private waiting: (() => void)[] = [];
  move(_id: number, version: number, action: string): Promise<Answer> {
    this.sent.push({ version, action });
    return new Promise((resolve) => this.waiting.push(() => {
      const moved = version === this.version;
      if (moved) this.version += 1;
      resolve({ state: at(this.version), stale: !moved, message: moved ? undefined : "moved on" });
    }));
  }
  async answer(): Promise<void> {
    this.waiting.shift()!();
    await new Promise((r) => setTimeout(r, 0));
  }
}

describe("taps", () => {
  it("are sent one at a time, each with the version it was made on", async () => {
    const server = new Server();
    const shown: State[] = [];
    const game = new Game(server, (state) => shown.push(state), () => {});
    game.show(at(0));
    game.tap("T0");
    game.tap("T1"); // a second tap on the same table, before the answer: queued, not waiting for an animation
    expect(server.sent).toEqual([{ version: 0, action: "T0" }]);
    await server.answer();
    expect(server.sent[1]).toEqual({ version: 0, action: "T1" });
    await server.answer(); // stale: the server answered with the table as it stands, and moved nothing
    expect(server.version).toBe(1);
    expect(game.state?.version).toBe(1);
    expect(game.pending).toBe(0);
  });

  it("queue only a few behind the one in flight", () => {
    const server = new Server();
    const game = new Game(server, () => {}, () => {});
    game.show(at(0));
    for (let i = 0; i < 20; i++) game.tap("T0");
    expect(game.pending).toBe(1 + MAX_QUEUED);
  });

  it("after a failure, drop what was queued and say so", async () => {
    const errors: unknown[] = [];
    const failing = { move: () => Promise.reject(new Error("offline")) };
    const game = new Game(failing, () => {}, (error) => errors.push(error));
    game.show(at(0));
    game.tap("T0");
    game.tap("T1");
    await new Promise((r) => setTimeout(r, 0));
    expect(errors).toHaveLength(1);
    expect(game.pending).toBe(0);
  });
});
