// What the built-in NetHack agent decides in one turn: the actions of actions.json and why (the turn's text).
export interface Decision {
  readonly actions: string[];
  readonly reason: string;
}
