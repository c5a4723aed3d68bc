// The server contract (docs/protocol.md): REST under /api, one WebSocket per game at /ws/games/{id}.

export type GameKind = "mulle" | "cribbage";

export interface OptionSpec {
  key: string;
  type: "bool" | "int" | "choice";
  choices?: (string | number)[];
  default: unknown;
  label_en?: string;
  label_sv?: string;
  help_en?: string;
  help_sv?: string;
  min?: number;
  max?: number;
}

export interface OptionsDoc {
  game: GameKind;
  options: OptionSpec[];
  profiles?: (string | { name: string; [k: string]: unknown })[];
  bot_levels: string[];
  /** Each level's words from the bot registry (kortbord.bots.registry.describe), by language. */
  bot_level_words?: Record<string, LevelWords>;
}

export interface LevelWords {
  name: Record<string, string>;
  text: Record<string, string>;
  muggins_text: Record<string, string> | null;
  /** The chance 0..1 that it overlooks a scoring group in its own Muggins count (null: it never does). */
  miscounts: number | null;
  /** One of the levels for people (beginner, casual, strong, expert); the others are measuring anchors. */
  for_people: boolean;
}

export interface SeatSummary {
  seat: number;
  kind: "human" | "bot";
  level?: string;
  claimed: boolean;
  name?: string | null;
}

export interface GameSummary {
  game_id: string;
  game: GameKind;
  rules: Record<string, unknown>;
  players: number;
  seats: SeatSummary[];
  status: "waiting" | "playing" | "over";
  created_at: string;
}

export interface Invite {
  seat: number;
  invite_code: string;
  url: string;
}

export interface Created {
  game_id: string;
  seat: number;
  token: string;
  invites: Invite[];
  notices: string[];
}

export interface StateMsg {
  type: "state";
  version: number;
  seat: number | null;
  game: GameKind;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  view: any;
  legal_moves: ({ notation: string } | string)[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  events: any[];
  status: "playing" | "over" | "waiting";
  result?: Record<string, unknown>;
  seats: SeatSummary[];
  /** Every event of the game so far (the answer to {"type": "resync", "history": true}, sent on connecting). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  history?: any[];
  /** After the game: a rematch someone asked for (each person takes their seat of it by asking, with their token). */
  rematch?: { game_id: string; by: number };
}

export interface RematchOut {
  game_id: string;
  seat: number;
  token: string | null;
  invites: Invite[];
}

export interface ErrorMsg {
  type: "error";
  code: string;
  message: string;
  /** An illegal move's reason: the engine's code plus data (words from the game's catalogue). */
  reason?: { code: string; [key: string]: unknown };
  version?: number;
}

export class ApiError extends Error {
  constructor(
    message: string,
    public code: string,
    public status: number,
    /** The engine's reason (bad_rules): {code, ...data}, worded from the game's catalogue. */
    public reason?: { code: string; [key: string]: unknown },
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err =
      (data as { error?: { code?: string; message?: string; reason?: { code: string } }; detail?: unknown } | null) ?? {};
    const message =
      err.error?.message ?? (typeof err.detail === "string" ? err.detail : JSON.stringify(err.detail ?? text));
    throw new ApiError(message || res.statusText, err.error?.code ?? String(res.status), res.status, err.error?.reason);
  }
  return data as T;
}

export const api = {
  options: (game: GameKind) => call<OptionsDoc>("GET", `/api/options/${game}`),
  create: (body: unknown) => call<Created>("POST", "/api/games", body),
  games: () => call<GameSummary[]>("GET", "/api/games"),
  game: (id: string) => call<GameSummary>("GET", `/api/games/${encodeURIComponent(id)}`),
  join: (id: string, invite_code: string, name?: string) =>
    call<{ seat: number; token: string }>("POST", `/api/games/${encodeURIComponent(id)}/join`, { invite_code, name }),
  /** Is the invite still good? (nothing spent; 403 bad_invite when used or wrong) */
  invite: (id: string, invite_code: string) =>
    call<{ seat: number; status: string }>("POST", `/api/games/${encodeURIComponent(id)}/invite`, { invite_code }),
  rematch: (id: string, token: string) =>
    call<RematchOut>("POST", `/api/games/${encodeURIComponent(id)}/rematch`, { token }),
};

/** The moves of a state message as notation strings (the server may send objects or strings). */
export function notations(msg: StateMsg): string[] {
  return (msg.legal_moves ?? []).map((m) => (typeof m === "string" ? m : m.notation));
}

/** A name as the server takes it: without control characters (U+0000-U+001F, U+007F-U+009F) and text-direction
 * controls (U+202A-U+202E, U+2066-U+2069), which it refuses (422), and without the white space around it -- a name
 * pasted with one of them is taken without it rather than refused with an error the player cannot see. */
export function plainName(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, "").trim();
}

// ------------------------------------------------------------------------------------------ seats kept locally
export interface SavedSeat {
  game_id: string;
  game: GameKind;
  seat: number;
  token: string;
  created: string;
  invites?: Invite[];
  notices?: string[];
}

const KEY = "kortbord.games";

export function savedSeats(): SavedSeat[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export function saveSeat(s: SavedSeat): void {
  const all = savedSeats().filter((x) => x.game_id !== s.game_id);
  all.unshift(s);
  localStorage.setItem(KEY, JSON.stringify(all.slice(0, 50)));
}

export function forgetSeat(id: string): void {
  localStorage.setItem(KEY, JSON.stringify(savedSeats().filter((x) => x.game_id !== id)));
}

export function seatFor(id: string): SavedSeat | undefined {
  return savedSeats().find((x) => x.game_id === id);
}

// ------------------------------------------------------------------------------------------------- websocket
export interface SocketHandlers {
  onState(msg: StateMsg): void;
  onError(msg: ErrorMsg): void;
  onStatus(status: "connecting" | "open" | "closed"): void;
  /** The server refused the connection for good (close code 4401 origin, 4403 seat token, 4404 no such game): the
   * socket does not try again -- another try would get the same answer. */
  onRefused?(code: number): void;
  /** Any other message (the aids' answers: aids, hint, advice). */
  onOther?(msg: { type?: string; [k: string]: unknown }): void;
}

/** The close codes after which trying again gets the same answer (docs/protocol.md): the page's origin refused,
 * a seat token not valid for the game, no such game. */
export const FINAL_CLOSE: ReadonlySet<number> = new Set([4401, 4403, 4404]);

/** One game's WebSocket, reconnecting with backoff (the backoff starts again only once a state has come: a server
 * that accepts and closes at once is not asked twice a second); resyncs when a version gap shows; stops for good
 * at a {@link FINAL_CLOSE} code. */
export class GameSocket {
  private ws: WebSocket | null = null;
  private closedByUs = false;
  private retry = 0;
  private pingTimer: number | undefined;
  version = -1;

  constructor(
    private gameId: string,
    private token: string | undefined,
    private handlers: SocketHandlers,
  ) {
    this.open();
  }

  private url(): string {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${proto}//${location.host}/ws/games/${encodeURIComponent(this.gameId)}${q}`;
  }

  private open(): void {
    this.handlers.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.handlers.onStatus("open");
      // The whole story so far: the log, open panels and the pegboard are rebuilt from it after a (re)load.
      this.send({ type: "resync", history: true });
      this.pingTimer = window.setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (e) => {
      let msg: { type?: string };
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      if (msg.type === "state") {
        this.retry = 0;
        const s = msg as StateMsg;
        if (this.version >= 0 && s.version > this.version + 1) {
          // A gap: ask for a fresh state (protocol: V increases by exactly 1 per move).
          this.send({ type: "resync" });
        }
        this.version = s.version;
        this.handlers.onState(s);
      } else if (msg.type === "error") {
        this.handlers.onError(msg as ErrorMsg);
      } else {
        this.handlers.onOther?.(msg);
      }
    };
    ws.onclose = (e) => {
      window.clearInterval(this.pingTimer);
      if (this.closedByUs) return;
      if (FINAL_CLOSE.has(e.code)) {
        this.closedByUs = true;
        this.handlers.onRefused?.(e.code);
        return;
      }
      this.handlers.onStatus("closed");
      const delay = Math.min(4000, 500 * 2 ** this.retry++);
      window.setTimeout(() => this.open(), delay);
    };
  }

  send(msg: unknown): void {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  move(notation: string): void {
    this.send({ type: "move", version: this.version, move: notation });
  }

  close(): void {
    this.closedByUs = true;
    window.clearInterval(this.pingTimer);
    this.ws?.close();
  }
}
