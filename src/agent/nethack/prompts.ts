// Answers to what the game asks on the message line: which food to eat, yes to praying, the fingers and the
// word Elbereth when engraving, no to every other yes/no question (a corpse on the floor, attacking a peaceful
// monster), Esc for anything else that waits for input.
import type { Decision } from "./decision.ts";

export const ELBERETH = "Elbereth";

export function answerPrompt(msg: string, inventory: readonly string[]): Decision | undefined {
  if (/In what direction/.test(msg)) return { actions: ["esc"], reason: "a direction nobody asked for" };
  const choice = /What do you want to eat\? \[([^\] ]*)/.exec(msg);
  if (choice) {
    const food = inventory.find(isFood)?.[0];
    const letter = food && choice[1]!.includes(food) ? food : undefined;
    return letter ? { actions: [letter], reason: "eating" } : { actions: ["esc"], reason: "nothing safe to eat" };
  }
  if (/Are you sure you want to pray\?/.test(msg)) return { actions: ["y"], reason: "yes, pray" };
  if (/What do you want to write with\?/.test(msg)) return { actions: ["minus"], reason: "writing with a fingertip" };
  if (/Do you want to add to the current engraving\?/.test(msg))
    return { actions: ["n"], reason: "writing a fresh Elbereth over the old engraving" };
  const typing = /write in the (?:dust|frost) here\?\s*(\S*)\s*$/.exec(msg);
  if (typing) {
    const typed = typing[1] ?? "";
    if (!ELBERETH.toLowerCase().startsWith(typed.toLowerCase())) return { actions: ["esc"], reason: "a garbled engraving" };
    return { actions: [...ELBERETH.slice(typed.length).split(""), "more"], reason: `writing ${ELBERETH}` };
  }
  if (/\[yn[aq]*\]|\[ynaq\]/.test(msg)) return { actions: ["n"], reason: `answering no: ${msg.trim().slice(0, 60)}` };
  if (/\? \[[^\]]*\]|What do you want to|Call it|Where do you want|Name it|What do you want to name/.test(msg))
    return { actions: ["esc"], reason: "cancelling a prompt" };
  return undefined;
}

/** An inventory line holding food safe to eat at any time (no corpses: they may be old, acidic or worse). */
export function isFood(line: string): boolean {
  return (
    /food ration|cram ration|lembas|fortune cook|apple|orange|pear|melon|banana|carrot|egg\b|eggs\b|pancake|candy bar|K-ration|C-ration|tortilla|meatball|meat stick|huge chunk of meat|kelp frond|eucalyptus|slime mold/.test(
      line,
    ) &&
    /^[a-zA-Z] - /.test(line) &&
    !/corpse|cursed tin/.test(line)
  );
}
