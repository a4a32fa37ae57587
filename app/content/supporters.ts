/** Fourteen partners, all invented. Their logos are text tiles until real artwork is supplied. */
export const supporters = [
  "Chelmer Valley Rotary",
  "Blackwater Sailing Club",
  "Stour Estuary Lodge",
  "Orwell Engineering Ltd",
  "Dengie Hundred Bowls League",
  "Colne Community Trust",
  "Brentwood Business Forum",
  "Harwich Harbour Workers",
  "Deben Valley Golf Society",
  "Epping Forest Rugby Club",
  "Tendring Men's Sheds",
  "Eastern Counties Police Federation",
  "Maldon Round Table",
  "Thames Gateway Employers",
] as const;

/** The three grand lodges whose members host our freemason events (invented names). */
export const grandLodges = [
  "Provincial Grand Lodge of the Estuaries",
  "Grand Lodge of the Eastern Shires",
  "Metropolitan Grand Lodge of Example",
] as const;
