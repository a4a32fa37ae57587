import { TZDate } from "@date-fns/tz";
import { addLondonDays, formatTimeOfDay, LONDON, londonDate } from "#app/domain/london-time";
import { createAccessCode } from "#app/services/access-codes.server";
import type { Db } from "#app/db/client.server";
import { event, screeningProduct } from "#app/db/schema";
import { generateSlots } from "#app/domain/events";

/** The demo access codes, printed in the README. */
export const DEMO_ACCESS_CODES = {
  lodge: "LODGE-2026",
  orwellStaff: "ORWELL-STAFF",
  usedUp: "USED-UP",
  expired: "EXPIRED-CODE",
} as const;

type Place = {
  city: string;
  line1: string;
  postcode: string;
  county: string;
  lat: number;
  lng: number;
};

const places = {
  chelmsford: {
    city: "Chelmsford",
    line1: "Chelmsford Civic Centre, Duke Street",
    postcode: "CM1 1JE",
    county: "Essex",
    lat: 51.7356,
    lng: 0.4685,
  },
  colchester: {
    city: "Colchester",
    line1: "Colchester Rugby Club, Raven Park",
    postcode: "CO4 5BU",
    county: "Essex",
    lat: 51.8959,
    lng: 0.8919,
  },
  basildon: {
    city: "Basildon",
    line1: "Basildon Sporting Village, Gloucester Park",
    postcode: "SS14 2GG",
    county: "Essex",
    lat: 51.5761,
    lng: 0.4886,
  },
  southend: {
    city: "Southend-on-Sea",
    line1: "Cliffs Pavilion Community Room",
    postcode: "SS0 7RA",
    county: "Essex",
    lat: 51.5459,
    lng: 0.7077,
  },
  brentwood: {
    city: "Brentwood",
    line1: "Brentwood Centre, Doddinghurst Road",
    postcode: "CM15 9NN",
    county: "Essex",
    lat: 51.621,
    lng: 0.305,
  },
  harlow: {
    city: "Harlow",
    line1: "Harlow Leisurezone, Second Avenue",
    postcode: "CM20 3DT",
    county: "Essex",
    lat: 51.7729,
    lng: 0.1023,
  },
  braintree: {
    city: "Braintree",
    line1: "Braintree Town Hall",
    postcode: "CM7 3YG",
    county: "Essex",
    lat: 51.878,
    lng: 0.553,
  },
  witham: {
    city: "Witham",
    line1: "Witham Public Hall, Collingwood Road",
    postcode: "CM8 2DY",
    county: "Essex",
    lat: 51.8007,
    lng: 0.6403,
  },
  maldon: {
    city: "Maldon",
    line1: "Maldon Masonic Hall, Fambridge Road",
    postcode: "CM9 6BA",
    county: "Essex",
    lat: 51.7318,
    lng: 0.6769,
  },
  clacton: {
    city: "Clacton-on-Sea",
    line1: "Clacton Town Hall, Station Road",
    postcode: "CO15 1SE",
    county: "Essex",
    lat: 51.7898,
    lng: 1.156,
  },
  harwich: {
    city: "Harwich",
    line1: "Harwich Quay Community Centre",
    postcode: "CO12 3HH",
    county: "Essex",
    lat: 51.9343,
    lng: 1.2856,
  },
  ipswich: {
    city: "Ipswich",
    line1: "Ipswich Corn Exchange, King Street",
    postcode: "IP1 1DH",
    county: "Suffolk",
    lat: 52.0567,
    lng: 1.1482,
  },
  bury: {
    city: "Bury St Edmunds",
    line1: "The Apex, Charter Square",
    postcode: "IP33 3FD",
    county: "Suffolk",
    lat: 52.2463,
    lng: 0.7111,
  },
  felixstowe: {
    city: "Felixstowe",
    line1: "Orwell Logistics Ltd, Port Road",
    postcode: "IP11 3SY",
    county: "Suffolk",
    lat: 51.9633,
    lng: 1.3511,
  },
  lowestoft: {
    city: "Lowestoft",
    line1: "Lowestoft Masonic Hall, Gordon Road",
    postcode: "NR32 1NL",
    county: "Suffolk",
    lat: 52.4811,
    lng: 1.7534,
  },
  sudbury: {
    city: "Sudbury",
    line1: "Sudbury Town Hall, Gainsborough Street",
    postcode: "CO10 2EU",
    county: "Suffolk",
    lat: 52.0383,
    lng: 0.7313,
  },
  stowmarket: {
    city: "Stowmarket",
    line1: "Stowmarket Community Centre, Ipswich Street",
    postcode: "IP14 1AD",
    county: "Suffolk",
    lat: 52.1889,
    lng: 0.9977,
  },
  woodbridge: {
    city: "Woodbridge",
    line1: "Woodbridge Community Hall, Station Road",
    postcode: "IP12 4AU",
    county: "Suffolk",
    lat: 52.0936,
    lng: 1.3187,
  },
  westminster: {
    city: "London",
    line1: "Methodist Central Hall, Storey's Gate",
    postcode: "SW1H 9NH",
    county: "Greater London",
    lat: 51.4998,
    lng: -0.1298,
  },
  stratford: {
    city: "London",
    line1: "Stratford Library Community Room, The Grove",
    postcode: "E15 1EL",
    county: "Greater London",
    lat: 51.5433,
    lng: 0.0027,
  },
  croydon: {
    city: "Croydon",
    line1: "Fairfield Halls, Park Lane",
    postcode: "CR9 1DG",
    county: "Greater London",
    lat: 51.3717,
    lng: -0.0957,
  },
  canaryWharf: {
    city: "London",
    line1: "One Canada Square (tenant health suite)",
    postcode: "E14 5AB",
    county: "Greater London",
    lat: 51.5049,
    lng: -0.0195,
  },
  ilford: {
    city: "Ilford",
    line1: "Ilford Town Hall, High Road",
    postcode: "IG1 1DD",
    county: "Greater London",
    lat: 51.559,
    lng: 0.0741,
  },
  romford: {
    city: "Romford",
    line1: "Romford Masonic Centre, Main Road",
    postcode: "RM1 3DR",
    county: "Greater London",
    lat: 51.5768,
    lng: 0.1801,
  },
  brixton: {
    city: "London",
    line1: "Brixton Recreation Centre, Station Road",
    postcode: "SW9 8QQ",
    county: "Greater London",
    lat: 51.4613,
    lng: -0.1156,
  },
} satisfies Record<string, Place>;

interface DemoEvent {
  name: string;
  place: Place;
  /** Days from today (London), and times; or explicit times for the "today" cases. */
  day: number;
  start: string;
  end: string;
  category: "community" | "freemasons" | "corporate";
  product: "psa" | "psaHealth" | "funded";
  paid: boolean | null;
  total: number;
  booked: number;
  session?: number;
  perSlot?: number;
  corporateOnly?: boolean;
  isPrivate?: boolean;
  lab?: string;
  description?: string;
}

/** Start and end on today's date that are still ahead of `now`, for the "today" demo events. */
function laterToday(now: Date, hours: number): { start: string; end: string } {
  const local = new TZDate(now, LONDON);
  const startMinute = Math.min(Math.max((local.getHours() + 1) * 60, 8 * 60), 22 * 60);
  const endMinute = Math.min(startMinute + hours * 60, 23 * 60 + 59);
  return { start: formatTimeOfDay(startMinute), end: formatTimeOfDay(endMinute) };
}

function demoEvents(now: Date): DemoEvent[] {
  const today = laterToday(now, 3);
  return [
    // Past
    {
      name: "Colchester Rugby Club Screening",
      place: places.colchester,
      day: -14,
      start: "10:00",
      end: "14:00",
      category: "community",
      product: "psa",
      paid: true,
      total: 60,
      booked: 58,
    },
    {
      name: "Ipswich Corn Exchange Health Morning",
      place: places.ipswich,
      day: -5,
      start: "09:00",
      end: "12:00",
      category: "community",
      product: "funded",
      paid: false,
      total: 80,
      booked: 80,
    },
    {
      name: "Romford Masonic Centre Screening",
      place: places.romford,
      day: -2,
      start: "18:00",
      end: "21:00",
      category: "freemasons",
      product: "psa",
      paid: true,
      total: 40,
      booked: 31,
    },
    // Today: a public one (closed by the 24-hour rule) and a corporate-only one (still bookable)
    {
      name: "Chelmsford Civic Centre Drop-in",
      place: places.chelmsford,
      day: 0,
      ...today,
      category: "community",
      product: "psa",
      paid: true,
      total: 60,
      booked: 12,
      description: "A relaxed drop-in session in the Civic Centre's community room.",
    },
    {
      name: "Orwell Logistics Staff Screening",
      place: places.felixstowe,
      day: 0,
      ...today,
      category: "corporate",
      product: "psaHealth",
      paid: false,
      total: 45,
      booked: 20,
      corporateOnly: true,
      description:
        "For Orwell Logistics staff at the Port Road site. Book with your work e-mail address.",
    },
    // Tomorrow (within 24 hours of ending for most of the day), and the day after
    {
      name: "Harwich Quay Morning Screening",
      place: places.harwich,
      day: 1,
      start: "08:00",
      end: "11:00",
      category: "community",
      product: "funded",
      paid: false,
      total: 50,
      booked: 18,
    },
    {
      name: "Canary Wharf Tenants' Health Day",
      place: places.canaryWharf,
      day: 1,
      start: "08:00",
      end: "12:00",
      category: "corporate",
      product: "psa",
      paid: true,
      total: 120,
      booked: 64,
      corporateOnly: true,
      session: 10,
      perSlot: 3,
    },
    {
      name: "Braintree Town Hall Screening",
      place: places.braintree,
      day: 2,
      start: "10:00",
      end: "15:00",
      category: "community",
      product: "psa",
      paid: true,
      total: 70,
      booked: 22,
    },
    // Next week
    {
      name: "Maldon Lodge Screening Evening",
      place: places.maldon,
      day: 4,
      start: "18:00",
      end: "21:00",
      category: "freemasons",
      product: "psa",
      paid: true,
      total: 40,
      booked: 40,
      description: "Open to lodge members, their families and neighbours.",
    },
    {
      name: "Stratford Community PSA Morning",
      place: places.stratford,
      day: 5,
      start: "09:30",
      end: "13:00",
      category: "community",
      product: "funded",
      paid: false,
      total: 60,
      booked: 14,
      description:
        "Free screening funded by local fundraising. Men at higher risk, including Black men, are especially welcome.",
    },
    {
      name: "Westminster Central Hall Screening",
      place: places.westminster,
      day: 6,
      start: "10:00",
      end: "16:00",
      category: "community",
      product: "psa",
      paid: true,
      total: 150,
      booked: 71,
      session: 10,
      perSlot: 3,
    },
    {
      name: "Colchester Hospital Partnership Clinic",
      place: places.colchester,
      day: 7,
      start: "09:00",
      end: "12:00",
      category: "community",
      product: "psaHealth",
      paid: true,
      total: 45,
      booked: 9,
      lab: "ESNEFT",
      description:
        "Samples are analysed by the hospital laboratory, which needs your correct 10-digit NHS number.",
    },
    // Next month
    {
      name: "Lowestoft Masonic Hall Screening",
      place: places.lowestoft,
      day: 11,
      start: "18:30",
      end: "21:00",
      category: "freemasons",
      product: "psa",
      paid: true,
      total: 40,
      booked: 5,
      isPrivate: true,
      description:
        "Private event for members of Waveney lodges and their guests. Use the access code from your lodge secretary.",
    },
    {
      name: "Orwell Logistics Head Office Screening",
      place: places.ipswich,
      day: 13,
      start: "08:30",
      end: "12:30",
      category: "corporate",
      product: "psaHealth",
      paid: false,
      total: 60,
      booked: 11,
      corporateOnly: true,
      isPrivate: true,
      description:
        "Private event for Orwell Logistics head-office staff. Your access code is on the staff intranet.",
    },
    {
      name: "Southend Cliffs Pavilion Screening",
      place: places.southend,
      day: 14,
      start: "10:00",
      end: "15:00",
      category: "community",
      product: "psa",
      paid: true,
      total: 80,
      booked: 30,
    },
    {
      name: "Bury St Edmunds Apex Health Day",
      place: places.bury,
      day: 16,
      start: "10:00",
      end: "16:00",
      category: "community",
      product: "psaHealth",
      paid: true,
      total: 100,
      booked: 12,
      session: 15,
      perSlot: 2,
    },
    {
      name: "Croydon Fairfield Halls Screening",
      place: places.croydon,
      day: 18,
      start: "11:00",
      end: "17:00",
      category: "community",
      product: "psa",
      paid: true,
      total: 90,
      booked: 0,
    },
    {
      name: "Witham Public Hall Screening",
      place: places.witham,
      day: 20,
      start: "09:00",
      end: "12:00",
      category: "community",
      product: "funded",
      paid: null,
      total: 50,
      booked: 3,
    },
    {
      name: "Ilford Town Hall Men's Health Check",
      place: places.ilford,
      day: 22,
      start: "10:00",
      end: "14:00",
      category: "community",
      product: "psaHealth",
      paid: true,
      total: 70,
      booked: 70,
    },
    {
      name: "Brentwood Centre Screening",
      place: places.brentwood,
      day: 25,
      start: "13:00",
      end: "18:00",
      category: "community",
      product: "psa",
      paid: true,
      total: 60,
      booked: 8,
    },
    {
      name: "Sudbury Town Hall Screening",
      place: places.sudbury,
      day: 27,
      start: "10:00",
      end: "13:00",
      category: "community",
      product: "funded",
      paid: false,
      total: 45,
      booked: 2,
    },
    {
      name: "Thames Gateway Employers' Screening",
      place: places.basildon,
      day: 29,
      start: "08:00",
      end: "13:00",
      category: "corporate",
      product: "psa",
      paid: true,
      total: 80,
      booked: 26,
      corporateOnly: true,
    },
    // Later
    {
      name: "Clacton Town Hall Screening",
      place: places.clacton,
      day: 36,
      start: "10:00",
      end: "14:00",
      category: "community",
      product: "psa",
      paid: true,
      total: 60,
      booked: 0,
    },
    {
      name: "Brixton Recreation Centre Screening",
      place: places.brixton,
      day: 40,
      start: "10:00",
      end: "15:00",
      category: "community",
      product: "funded",
      paid: false,
      total: 80,
      booked: 4,
    },
    {
      name: "Harlow Leisurezone Screening",
      place: places.harlow,
      day: 45,
      start: "09:30",
      end: "13:30",
      category: "community",
      product: "psa",
      paid: true,
      total: 60,
      booked: 0,
    },
    {
      name: "Stowmarket Lodge Screening",
      place: places.stowmarket,
      day: 50,
      start: "18:00",
      end: "21:00",
      category: "freemasons",
      product: "psa",
      paid: true,
      total: 40,
      booked: 0,
    },
    {
      name: "Woodbridge Community Hall Screening",
      place: places.woodbridge,
      day: 58,
      start: "10:00",
      end: "13:00",
      category: "community",
      product: "psaHealth",
      paid: true,
      total: 50,
      booked: 0,
    },
    {
      name: "Romford Masonic Centre Spring Screening",
      place: places.romford,
      day: 64,
      start: "18:00",
      end: "21:00",
      category: "freemasons",
      product: "psa",
      paid: true,
      total: 40,
      booked: 0,
    },
    {
      name: "Chelmsford Police Federation Screening",
      place: places.chelmsford,
      day: 72,
      start: "07:30",
      end: "11:30",
      category: "corporate",
      product: "funded",
      paid: false,
      total: 60,
      booked: 0,
      corporateOnly: true,
    },
    {
      name: "Colchester Spring Health Day",
      place: places.colchester,
      day: 85,
      start: "10:00",
      end: "15:00",
      category: "community",
      product: "psa",
      paid: true,
      total: 80,
      booked: 0,
    },
  ];
}

/** How many places each demo event has booked: real bookings, made by the attendees seeder. */
export function demoBookedCounts(now: Date): { name: string; booked: number }[] {
  return demoEvents(now)
    .filter((demo) => demo.booked > 0)
    .map((demo) => ({ name: demo.name, booked: demo.booked }));
}

/**
 * Places per time: as many nurses as it takes for the event's places to fit its times (a demo
 * event of 80 places over 12 quarter-hours has 7 chairs), so that a full event is full in every
 * time, as a real one would be.
 */
function demoPlacesPerSlot(demo: DemoEvent): number {
  const slots = generateSlots(demo.start, demo.end, demo.session ?? 15).length;
  return Math.max(demo.perSlot ?? 2, Math.ceil(demo.total / Math.max(1, slots)));
}

export async function seedDemoEvents(db: Db, now: Date) {
  const [psa, psaHealth, funded] = await db
    .insert(screeningProduct)
    .values([
      {
        name: "PSA Blood Test",
        description: "A PSA blood test with a nurse, and your result explained.",
        pricePence: 2500,
      },
      {
        name: "PSA Test and Health Check",
        description: "A PSA test with blood pressure, cholesterol and diabetes checks.",
        pricePence: 4000,
      },
      {
        name: "PSA Blood Test (funded)",
        description: "A PSA blood test paid for by local fundraising.",
        pricePence: 0,
      },
    ])
    .returning();
  const products = { psa: psa!, psaHealth: psaHealth!, funded: funded! };
  const today = londonDate(now);

  const rows = await db
    .insert(event)
    .values(
      demoEvents(now).map((demo) => ({
        name: demo.name,
        description:
          demo.description ?? `PSA screening for men aged 40 to 80 in ${demo.place.city}.`,
        productId: products[demo.product].id,
        paymentRequired: demo.paid,
        eventDate: addLondonDays(today, demo.day),
        startTime: demo.start,
        endTime: demo.end,
        sessionDuration: demo.session ?? 15,
        totalSpaces: demo.total,
        placesPerSlot: demoPlacesPerSlot(demo),
        category: demo.category,
        exclusiveFor: demo.corporateOnly ? "CORPORATE" : null,
        isPublic: !demo.isPrivate,
        contactEmail: "events@example.org",
        labName: demo.lab ?? null,
        addressLine1: demo.place.line1,
        city: demo.place.city,
        state: demo.place.county,
        postcode: demo.place.postcode,
        latitude: demo.place.lat,
        longitude: demo.place.lng,
      })),
    )
    .returning({ id: event.id, name: event.name });

  const byName = (name: string) => rows.find((row) => row.name === name)!.id;
  const lodge = byName("Lowestoft Masonic Hall Screening");
  const orwell = byName("Orwell Logistics Head Office Screening");
  const in60Days = new Date(now.getTime() + 60 * 24 * 60 * 60 * 1000);
  await createAccessCode(db, {
    eventId: lodge,
    code: DEMO_ACCESS_CODES.lodge,
    label: "Waveney lodges",
    maxUses: 60,
  });
  await createAccessCode(db, {
    eventId: lodge,
    code: DEMO_ACCESS_CODES.usedUp,
    label: "Guest list (full)",
    maxUses: 1,
    uses: 1,
  });
  await createAccessCode(db, {
    eventId: lodge,
    code: DEMO_ACCESS_CODES.expired,
    label: "Last year's code",
    expiresAt: new Date(now.getTime() - 86_400_000),
  });
  await createAccessCode(db, {
    eventId: orwell,
    code: DEMO_ACCESS_CODES.orwellStaff,
    label: "Orwell Logistics staff",
    maxUses: 80,
    expiresAt: in60Days,
  });
}
