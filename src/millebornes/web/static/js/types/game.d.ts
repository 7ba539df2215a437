// What the pages read inside the frames and answers that the server types loosely (a frame's observation is a
// Mapping[str, Any] in web/outbound.py): written by hand from millebornes.observe.observation, the events of
// millebornes.events and the answers of the HTTP API. Only the type checker reads this file (make lint).

/** A side's cards on the table (millebornes.state.Table.tableau), with whether it may play distance now. */
export interface Tableau {
  distance: number;
  battle: string[];
  speed: string[];
  safeties: string[];
  coups_fourres: string[];
  two_hundreds: number;
  distance_cards: string[];
  moving: boolean;
}

/** The hazard that opened a coup-fourré window. */
export interface PendingAttack {
  attacker: number;
  hazard: string;
  side: number;
}

/** A hand's result (the hand-over event, and each of an observation's hand_results). */
export interface HandResult {
  type?: string;
  hand: number;
  points: number[];
  winners: number[];
  breakdown?: Record<string, unknown>[];
  [key: string]: unknown;
}

/** What a seat (or a spectator) may see of the game (millebornes.observe.observation). */
export type Observation = {
  format?: number;
  seat: number | null;
  side: number | null;
  ruleset: string;
  options: { target?: number; match_target?: number; [key: string]: unknown };
  players: number;
  teams: boolean;
  sides: number[][];
  hand_number: number;
  first_seat?: number;
  turn: number;
  to_act: number | null;
  decision: string;
  legal_actions: string[];
  pending_attack: PendingAttack | null;
  pickup_available: boolean;
  took_discard?: boolean;
  hand: string[];
  hand_sizes: number[];
  known_cards?: string[][];
  stock_size: number;
  discard_pile: string[];
  target: number;
  extension_open?: boolean;
  extender?: number | null;
  tableaux: Tableau[];
  hand_results: HandResult[];
  match_scores: number[];
  is_over: boolean;
  winners: number[];
};

/** One public event of the game (millebornes.events): its type and the fields that type has. */
export interface GameEvent {
  type: string;
  seat?: number;
  side?: number;
  card?: string;
  hazard?: string;
  attacker?: number;
  hand?: number;
  target?: number;
  points?: number[];
  scores?: number[];
  winners?: number[];
  why?: string;
  action?: string;
  [key: string]: unknown;
}

/** One seat as a page names it: the seat facts of a frame, or a table's seat from the HTTP API. */
export interface SeatName {
  seat: number;
  kind?: string;
  level?: string | null;
  nickname?: string | null;
  connected?: boolean;
  standin?: boolean;
}

/** A naming context: the seats, and the seats of each side (a lone seat is its own side). */
export interface NamingContext {
  seats?: SeatName[];
  sides?: number[][];
}

/** A hint: an action, its chance of winning the hand, and of the match where the edition plays one. */
export type HintAction = {
  action: string;
  win_chance?: number;
  match_chance?: number;
  /** Why it is the move to play (the search's choice only): millebornes.reasons' code and params. */
  reason?: { code: string; params?: Record<string, unknown> };
  [key: string]: unknown;
};

/** A table's public facts: the welcome frame's table, and GET /api/tables/{id}. */
export interface TableFacts {
  id?: string;
  ruleset: string;
  players: number;
  teams?: boolean;
  status: string;
  seats: SeatName[];
  sides?: number[][];
  rated?: boolean;
  casual?: boolean;
  cf_timeout?: number;
  [key: string]: unknown;
}

/** The turn clock of a state frame: whose decision, for how long so far, the time left (s), a pause before it runs. */
export type TurnFacts = {
  seat: number;
  for: number;
  left: number | null;
  paused?: number;
};
