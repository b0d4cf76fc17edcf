// The server's API (web/routes.py): every call but the code exchange carries the player's access token.
import type { Answer, Transport } from "./game";
import type { Source, Strip } from "./together";
import type { Progress, State, Words } from "./types";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = "",
  ) {
    super(message);
  }
}

export interface Me {
  player: { id: string; name: string };
  locale: string;
  words: Words;
  rules: string[]; // the classic rules, a paragraph each (the catalogues' **bold** kept)
  daily: boolean; // whether this bot has the daily challenge
  client_id: string;
}

export class Api implements Transport, Source {
  token = "";
  instanceId: string | undefined; // the Activity's instance inside Discord: the server checks where it runs
  constructor(
    private base: string,
    public locale: string,
  ) {}

  private url(path: string): string {
    const joiner = path.includes("?") ? "&" : "?";
    return `${this.base}${path}${joiner}locale=${encodeURIComponent(this.locale)}`;
  }

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(this.url(path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const type = response.headers.get("Content-Type") ?? "";
    const parsed = type.includes("json") ? await response.json() : await response.blob();
    return { status: response.status, body: parsed };
  }

  async ok(method: string, path: string, body?: unknown): Promise<any> {
    const answer = await this.call(method, path, body);
    if (answer.status >= 400) {
      const message = answer.body?.message ?? `HTTP ${answer.status}`;
      throw new ApiError(answer.status, message, answer.body?.error ?? "");
    }
    return answer.body;
  }

  async exchange(code: string): Promise<string> {
    const body = await this.ok("POST", "api/token", { code });
    this.token = body.access_token;
    return this.token;
  }

  me(): Promise<Me> {
    return this.ok("GET", "api/me");
  }

  async current(kind: "normal" | "daily"): Promise<State | null> {
    return (await this.ok("GET", `api/game?kind=${kind}`)).state;
  }

  /** The player's game of a running challenge they joined in the channel where this instance runs (the server
   * asks Discord where that is), or null. */
  async challengeHere(instance: string): Promise<State | null> {
    return (await this.ok("GET", `api/game?kind=challenge&instance=${encodeURIComponent(instance)}`)).state;
  }

  async game(gameId: number): Promise<State> {
    return (await this.ok("GET", `api/games/${gameId}`)).state;
  }

  async start(kind: "normal" | "daily"): Promise<State> {
    return (await this.ok("POST", "api/games", { kind, instance_id: this.instanceId })).state;
  }

  async move(gameId: number, version: number, action: string): Promise<Answer> {
    const answer = await this.call("POST", `api/games/${gameId}/move`, { version, action });
    if (answer.status === 409 && answer.body?.state) {
      return { state: answer.body.state, stale: true, message: answer.body.message };
    }
    if (answer.status >= 400) throw new ApiError(answer.status, answer.body?.message ?? `HTTP ${answer.status}`);
    return { state: answer.body.state, stale: false };
  }

  hint(gameId: number, confirm: boolean): Promise<{ status: number; body: any }> {
    return this.call("POST", `api/games/${gameId}/hint`, { confirm });
  }

  /** The review's lines once it is worked out, else how far it is (the server goes on; ask again). */
  async review(gameId: number): Promise<{ lines: string[] } | { progress: Progress; text: string }> {
    const answer = await this.call("GET", `api/games/${gameId}/review`);
    if (answer.status === 202) return answer.body;
    if (answer.status >= 400) {
      throw new ApiError(answer.status, answer.body?.message ?? `HTTP ${answer.status}`, answer.body?.error ?? "");
    }
    return answer.body;
  }

  async replay(gameId: number): Promise<Blob> {
    return this.ok("GET", `api/games/${gameId}/replay`);
  }

  private togetherPath(path: string, instance: string, gameId: number | null): string {
    const game = gameId === null ? "" : `&game=${gameId}`;
    return `${path}?instance=${encodeURIComponent(instance)}${game}`;
  }

  /** The strip of friends at this table as a stream of server-sent events (read with fetch: it carries the token). */
  stream(instance: string, gameId: number | null, signal: AbortSignal): Promise<Response> {
    return fetch(this.url(this.togetherPath("api/together", instance, gameId)), {
      headers: { Accept: "text/event-stream", Authorization: `Bearer ${this.token}` },
      signal,
    });
  }

  strip(instance: string, gameId: number | null): Promise<Strip> {
    return this.ok("GET", this.togetherPath("api/together/strip", instance, gameId));
  }

  async share(gameId: number): Promise<string> {
    return (await this.ok("GET", `api/games/${gameId}/share`)).text;
  }
}
