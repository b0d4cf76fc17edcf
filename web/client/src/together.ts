// Friends at the same table: the strip of who else is in this Activity instance, as the server builds it for
// this player (web/together.py): names, and for a game played together (today's daily, the same challenge) the
// room and health, the score once over. Never a card: the server sends none. Pushed by server-sent events read
// with fetch (they carry the player's token); where the stream is blocked, polled.
import type { Words } from "./types";

export interface Friend {
  id: string;
  name: string;
  playing: "daily" | "challenge" | null;
  room: number | null;
  health: number | null;
  status: string | null;
  score: number | null;
}

export interface Strip {
  friends: Friend[];
  poll: number; // seconds between two polls, when polling
}

export interface Source {
  stream(instance: string, gameId: number | null, signal: AbortSignal): Promise<Response>;
  strip(instance: string, gameId: number | null): Promise<Strip>;
}

/** The strip's words for one friend. */
export function friendText(friend: Friend, words: Words): string {
  if (friend.playing === null || friend.room === null) return friend.name;
  if (friend.score !== null) return `${friend.name} · ${words.score} ${friend.score}`;
  if (friend.status === "abandoned") return `${friend.name} · ${words.unfinished}`; // gave up, or the close ended it
  return `${friend.name} · ${words.room} ${friend.room} · ❤️ ${friend.health}`;
}

/** Draw the strip in ``aside`` (hidden when nobody else is there, so a lone player's table is as before). */
export function drawStrip(aside: HTMLElement, strip: Strip, words: Words): void {
  aside.hidden = strip.friends.length === 0;
  aside.setAttribute("aria-label", words.together);
  aside.replaceChildren(...strip.friends.map((friend) => {
    const item = document.createElement("span");
    item.className = "friend";
    item.dataset.player = friend.id;
    item.textContent = friendText(friend, words);
    return item;
  }));
}

/** Each ``data:`` event's JSON in a chunk of an event stream (``rest``: an unfinished event, kept for later). */
export function events(buffer: string): { strips: Strip[]; rest: string } {
  const parts = buffer.split("\n\n");
  const rest = parts.pop() ?? "";
  const strips: Strip[] = [];
  for (const part of parts) {
    const data = part.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6));
    if (data.length) strips.push(JSON.parse(data.join("\n")));
  }
  return { strips, rest };
}

export class Follower {
  private gameId: number | null = null;
  private abort: AbortController | null = null;
  private polling = false;

  constructor(
    private source: Source,
    private instance: string,
    private onStrip: (strip: Strip) => void,
  ) {}

  /** Follow the instance showing ``gameId``: the stream opens again when the game shown changes. */
  show(gameId: number | null): void {
    if (gameId === this.gameId && (this.abort !== null || this.polling)) return;
    this.gameId = gameId;
    this.abort?.abort();
    if (!this.polling) void this.listen();
  }

  private async listen(): Promise<void> {
    const abort = (this.abort = new AbortController());
    try {
      const response = await this.source.stream(this.instance, this.gameId, abort.signal);
      if (!response.ok || !response.body) throw new Error(`stream: HTTP ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const found = events(buffer + value);
        buffer = found.rest;
        found.strips.forEach(this.onStrip);
      }
      if (!abort.signal.aborted) setTimeout(() => void this.listen(), 1000); // closed by a proxy: again
    } catch (error) {
      if (abort.signal.aborted) return; // the game shown changed: a new stream is on its way
      void this.poll(); // the push is blocked here: ask instead
    }
  }

  private async poll(): Promise<void> {
    this.polling = true;
    for (;;) {
      let wait = 1.5;
      try {
        const strip = await this.source.strip(this.instance, this.gameId);
        this.onStrip(strip);
        wait = strip.poll;
      } catch {
        wait = 5;
      }
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  }
}
