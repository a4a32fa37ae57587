export interface ExpandableCard {
  title: string;
  body: string;
}

export const aboutCards: ExpandableCard[] = [
  {
    title: "Who We Are",
    body:
      "The Men's Health Advocacy Trust was founded in 2000 by a retired urological surgeon who had seen too many men arrive in his " +
      "clinic with prostate cancer that could have been found years earlier. What began as a handful of evening talks in village halls " +
      "is now a registered charity with nurses, phlebotomists, volunteers and a clinical advisory board, all working so that men can " +
      "find out about their prostate health early, close to home and without fuss.",
  },
  {
    title: "What We Do",
    body:
      "We campaign for a national prostate cancer screening programme, and until there is one we run PSA screening events across the UK. " +
      "Community clubs, employers, freemason lodges and police forces host our events. In Essex and Suffolk we also run health checks " +
      "with NHS Health Check teams, and some events offer skin cancer checks and cardiovascular and diabetes screening alongside the PSA " +
      "blood test. Every result is reviewed and explained, and men with a raised result are guided to their GP.",
  },
  {
    title: "Why We Do It",
    body:
      "Around 70,000 men die prematurely each year in the UK, many from illnesses that are treatable when found early. Prostate cancer " +
      "often has no symptoms until it has spread. A simple blood test can start the conversation sooner. We believe every man aged 40 to " +
      "80 should know his PSA level and what it means for him, whatever his postcode or background.",
  },
];

export const getInvolvedCards: ExpandableCard[] = [
  {
    title: "Fundraising ideas",
    body:
      "Run, cycle, bake or grow a moustache: every pound you raise pays for tests at events in communities that would otherwise go without. " +
      "Our events team can send you a fundraising pack with posters, collection boxes and ideas that have worked for other supporters, " +
      "from quiz nights to sponsored walks along the Essex coast.",
  },
  {
    title: "Donate today",
    body:
      "A gift of £25 pays for a PSA test and its laboratory analysis for one man. A regular monthly gift helps us plan events a year ahead " +
      "and take screening to workplaces and community halls where men rarely see a doctor. If you are a UK taxpayer, Gift Aid adds 25p to " +
      "every pound at no cost to you.",
  },
  {
    title: "Get involved today",
    body:
      "Volunteers welcome men at our events, help them register, and make the tea that keeps the queue cheerful. Clubs, lodges and " +
      "employers can host an event for their members or staff. If you have a story to share about prostate cancer, your words could " +
      "encourage another man to book his test.",
  },
];
