// types.js -- the JSDoc types the page's modules share (checked by tsc
// --checkJs).  The messages are those of docs/protocol.md, version 1.
export {};

/**
 * One action of the latest change, as this seat may see it.
 * @typedef {{seat: number | "chance", text: string}} LastAction
 */

/**
 * One event of an action's account (tafel_state_describe; docs/events.md):
 * its kind and fields.
 * @typedef {{kind: string, [field: string]: any}} ActionEvent
 */

/**
 * The account of action n (1-based) of seat, as this seat may see it: the
 * state message's `events` holds those since the socket's previous state.
 * @typedef {{n: number, seat: number | "chance", events: ActionEvent[]}} ActionAccount
 */

/**
 * A seat of the table, as the state message describes it.
 * name: the bound player's name (or a bot seat's spec), player: "account" or "guest" (social).
 * @typedef {{kind: "human" | "bot", bot?: string, connected: boolean, sockets?: number, resigned: boolean, forfeit?: string, name?: string, player?: "account" | "guest", invited?: boolean}} SeatInfo
 */

/**
 * A table's clocks (clocks): each seat's time left as of the message (real
 * time: its clock; correspondence: to its deadline while it is to move,
 * else null), whose clock runs, the clock's text and pace.
 * @typedef {{kind: "realtime" | "correspondence", text: string, left_ms: (number | null)[],
 *   running: number | null, base_ms?: number, increment_ms?: number, per_move_ms?: number,
 *   deadline_ms?: number | null}} ClockInfo
 */

/**
 * `turn`: it became the player's turn at another table.
 * @typedef {{type: "turn", table: string, game: string}} TurnMessage
 */

/**
 * `invited`: the player was invited to a table (docs/club.md, "Invitations by name").
 * @typedef {{type: "invited", table: string, game: string, by?: string, rated: boolean,
 *   clock: string, invite_until: number}} InvitedMessage
 */

/**
 * One of GET /api/my-games: a table where the player holds a seat, and its
 * players' names (null: an open seat).
 * @typedef {{table: string, game: string, seat: number, your_turn: boolean,
 *   players: (string | null)[],
 *   player_kinds?: ("account" | "guest" | "bot" | null)[], clock: ClockInfo | null, deadline_ms: number | null,
 *   left_ms?: number, updated: number, invited?: boolean, by?: string, rated?: boolean,
 *   invite_until?: number, waiting_for?: string[]}} MyGame
 */

/**
 * The state message: sent on join and after every change.
 * @typedef {{
 *   type: "state", protocol: number, table: string, seq: number, actions: number,
 *   seat: number | null, game: string, status: "playing" | "over",
 *   reason?: "abandoned" | "timeout" | "closed" | "aborted" | "declined" | "expired", seed?: string, clock?: ClockInfo,
 *   waiting?: boolean, invited_by?: string, invite_until?: number,
 *   to_move: number | "chance" | "terminal", seats: SeatInfo[], view: any,
 *   last: LastAction[], events: ActionAccount[], legal?: string[], undo: boolean,
 *   scores: number[], winners?: number[], rated?: boolean, private?: boolean, rematch?: string,
 *   rematch_offer?: RematchOffer
 * }} StateMessage
 */

/**
 * What a game view is given.  names are the seats' names as the terminal
 * prints them ("Red", "Blue", "Yellow", "Green", "Black"), colours their CSS
 * colours, both one per seat; seat is the viewer's seat (null: a spectator);
 * pieces is the game's `pieces` of GET /api/games (null if it could not be
 * read).  play(text) sends a move; the page drops a text not in the latest
 * state's `legal`.  settings are the table's settings as the player has
 * them now (a view reads them as it draws: botOffers).
 * @typedef {{
 *   seat: number | null,
 *   players: number,
 *   names: string[],
 *   colours: string[],
 *   pieces: any,
 *   play: (action: string) => void,
 *   settings?: import("./table/settings.mjs").Settings
 * }} GameContext
 */

/**
 * A game view: made by createView(root, ctx) of web/<game>/view.mjs.
 * update(state) draws a state (its `events` tell what the actions since the
 * previous one did: scoring, arrivals); hint(action), when the view has it,
 * draws a hinted action on the board (null: takes it away); words(action),
 * when the view has it, says a legal action in words (the list of all legal
 * actions), null for a text it does not know; light(events), when the view
 * has it, lights where the events of a log line happened (the fields that
 * name a place: x, y, segments, col, row; null: none); picture(events),
 * when the view has it, the piece a log line's events played, drawn small
 * as the board draws it (null: none).
 * @typedef {{update: (state: StateMessage) => void, destroy: () => void,
 *   hint?: (action: string | null) => void, words?: (action: string) => string | null,
 *   light?: (events: ActionEvent[] | null) => void,
 *   picture?: (events: ActionEvent[]) => Element | null}} GameView
 */

/**
 * A game as GET /api/games lists it.
 * @typedef {{name: string, summary: string, players: number, params: string[], pieces: any}} GameInfo
 */

/* ---- The other messages of docs/protocol.md (added by the table page). ---- */

/**
 * `created`: the answer to `create`; one token per seat, null for a bot seat.
 * @typedef {{type: "created", table: string, tokens: (string | null)[], watch: string}} CreatedMessage
 */

/**
 * `ack`: the request of this socket changed the table; seq is the new seq.
 * @typedef {{type: "ack", seq: number, table?: string}} AckMessage
 */

/**
 * One move of a hint, best first.  winrate is null when the bot has none.
 * @typedef {{action: string, share: number, winrate: number | null}} HintMove
 */

/**
 * `hint`: the hard bot's best moves for this seat, at table seq `seq`.
 * @typedef {{type: "hint", seq: number, bot: string, moves: HintMove[]}} HintMessage
 */

/**
 * `history`: every action so far, as this seat may see them, each with its
 * account and the scores after it.
 * @typedef {{seat: number | "chance", text: string, events: ActionEvent[], scores: number[]}} HistoryAction
 * @typedef {{type: "history", seq: number, actions: HistoryAction[]}} HistoryMessage
 */

/**
 * `replay`: a finished table's position after `actions` actions, as this
 * seat saw it then: the fields of a state message (`last` empty, no
 * `legal`, `undo` false; `to_move` may be "chance").
 * @typedef {Omit<StateMessage, "type"> & {type: "replay"}} ReplayMessage
 */

/**
 * A seat as the lobby lists it.
 * @typedef {{kind: "human" | "bot", bot?: string, taken?: boolean, sockets?: number, name?: string, player?: "account" | "guest"}} LobbySeat
 */

/**
 * A table as the lobby lists it.
 * @typedef {{table: string, game: string, status: "playing" | "over", reason?: "abandoned", seq: number, seats: LobbySeat[]}} LobbyTable
 */

/**
 * `lobby`: the open and recent tables (the 100 newest).
 * @typedef {{type: "lobby", tables: LobbyTable[]}} LobbyMessage
 */

/**
 * `error`: nothing changed.
 * @typedef {{type: "error", code: string, message: string}} ErrorMessage
 */

/**
 * One line of a table's chat: seat null for a spectator's; player null for
 * a client without a login (its seat names it).
 * @typedef {{n: number, name: string, player: "account" | "guest" | null, seat: number | null, at: number, text: string}} ChatLine
 */

/**
 * `chat`: lines of the table's chat (on join the latest, then each new one).
 * @typedef {{type: "chat", lines: ChatLine[]}} ChatMessage
 */

/**
 * `rematch`: the rematch of this table, the seat there and its token.
 * @typedef {{type: "rematch", table: string, seat: number, token: string | null}} RematchMessage
 */

/**
 * A rematch offered at a finished table: the asker's seat, the people's seats that accepted
 * and those still to answer (bots answer nothing).
 * @typedef {{from: number, accepted: number[], waiting: number[]}} RematchOffer
 */

/**
 * `rematch_ended`: the offer of seat `from` ended without a table, by seat `by`.
 * @typedef {{type: "rematch_ended", from: number, by: number | null,
 *   reason: "declined" | "withdrawn" | "left" | "failed"}} RematchEndedMessage
 */

/**
 * `elsewhere`: another node owns the table; the socket reopens at /ws?t=<table>
 * (net/connection.mjs handles it: listeners never see it).
 * @typedef {{type: "elsewhere", table: string}} ElsewhereMessage
 */

/**
 * Any message of the server.
 * @typedef {StateMessage | CreatedMessage | AckMessage | HintMessage | HistoryMessage |
 *   ReplayMessage | LobbyMessage | ErrorMessage | ChatMessage | RematchMessage |
 *   RematchEndedMessage | TurnMessage | InvitedMessage | PassMessage | ElsewhereMessage |
 *   {type: "pong"}} ServerMessage
 */

/**
 * A bot as GET /api/games lists it: `games` names the games it can be made
 * for as they come by default, `players` the counts of players it can be
 * made for in each game it plays ({"cardcassonne": [2]}: `expert` only
 * where a net is built in).  A bot without `players` (an older server's
 * list) plays every count of the games it names, one without `games` every
 * game.
 * @typedef {{name: string, summary: string, games?: string[],
 *            players?: Record<string, number[]>}} BotInfo
 */

/**
 * The answer of GET /api/games.
 * @typedef {{games: GameInfo[], bots: BotInfo[]}} GamesInfo
 */

/**
 * A finished table's record (GET /t/<table>/record), the format `tafel replay` reads.
 * @typedef {{game: string, players: string[], seed: number, actions: string[]}} GameRecord
 */

/**
 * A table on this device, as local/ lists it (`local_games`): its seats'
 * specs ("human" or a bot), times in seconds since the epoch.
 * @typedef {{table: string, game: string, seats: string[], status: "playing" | "over", actions: number,
 *   created: number, updated: number, scores: number[], winners: number[], to_move: number | string}} DeviceGame
 */

/**
 * "Pass the device": at a table on this device that people share, another
 * person is to play (docs/local.md).
 * @typedef {{type: "pass", table: string, seat: number}} PassMessage
 */

/**
 * The state of the connection, as net/connection.mjs reports it (restarting: the server
 * closed it with 1001, going away, as it does when it stops; ended: the page's login ended).
 * @typedef {{state: "connecting" | "open" | "closed" | "ended", retryIn?: number, restarting?: boolean,
 *            ended?: "logged_out" | "disabled"}} ConnectionStatus
 */
