// The game on this device: the state shown, the fight mode, and the taps on their way to the server.
// A tap is sent with the version it was made on; the server moves only from that version, so a tap on a
// state that has moved on is answered with the current state and nothing else happens. Taps never wait for
// an animation: one request is in flight at a time and the next taps queue behind it.
import { modeAfter } from "./rules";
import type { Mode, State } from "./types";

export interface Answer {
  state: State;
  stale: boolean; // the tap's version was not the game's: nothing moved, this is the game as it stands
  message?: string;
}

export interface Transport {
  move(gameId: number, version: number, action: string): Promise<Answer>;
}

export const MAX_QUEUED = 4; // taps waiting behind the one in flight; more are dropped (a stuck finger)

export class Game {
  state: State | null = null;
  mode: Mode = "weapon";
  private queue: { gameId: number; version: number; action: string }[] = [];
  private sending = false;

  constructor(
    private transport: Transport,
    private onState: (state: State, previous: State | null, note?: string) => void,
    private onError: (error: unknown) => void,
  ) {}

  show(state: State, note?: string): void {
    const previous = this.state;
    this.mode = modeAfter(previous, state, this.mode);
    this.state = state;
    this.onState(state, previous, note);
  }

  toggleMode(): void {
    this.mode = this.mode === "weapon" ? "bare" : "weapon";
    if (this.state) this.onState(this.state, this.state);
  }

  /** Send ``action`` as made on the state shown now (or on ``version`` when given). */
  tap(action: string, version?: number): void {
    if (!this.state || this.queue.length >= MAX_QUEUED) return;
    this.queue.push({ gameId: this.state.id, version: version ?? this.state.version, action });
    void this.pump();
  }

  get pending(): number {
    return this.queue.length + (this.sending ? 1 : 0);
  }

  private async pump(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        const next = this.queue.shift()!;
        try {
          const answer = await this.transport.move(next.gameId, next.version, next.action);
          this.show(answer.state, answer.stale ? answer.message : undefined);
        } catch (error) {
          this.queue.length = 0; // what was queued was made on a state we may not know any more
          this.onError(error);
        }
      }
    } finally {
      this.sending = false;
    }
  }
}
