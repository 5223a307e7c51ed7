// The choices of a NetHack run's fixed character (flags --role, --race, --align): settings, so they live here.
export const ROLES = [
  "archeologist",
  "barbarian",
  "caveman",
  "healer",
  "knight",
  "monk",
  "priest",
  "rogue",
  "ranger",
  "samurai",
  "tourist",
  "valkyrie",
  "wizard",
] as const;
export const RACES = ["human", "elf", "dwarf", "gnome", "orc"] as const;
export const ALIGNMENTS = ["lawful", "neutral", "chaotic"] as const;
export const GENDERS = ["male", "female"] as const;
