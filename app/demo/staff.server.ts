import crypto from "node:crypto";
import { symmetricEncrypt } from "better-auth/crypto";
import type { Db } from "#app/db/client.server";
import { account, twoFactor, user, userRole } from "#app/db/schema";
import type { StaffRole } from "#app/domain/roles";
import { hashPassword } from "#app/services/auth.server";
import { serverSecret } from "#app/services/secrets.server";

/**
 * The demo's staff, quoted in the README: for the demo only (DEMO_DATA is off in production).
 * All of them share one TOTP key, so one entry in an authenticator app signs in as any of them.
 */
export const DEMO_TOTP_KEY = "MHATDEMOTOTPKEY2MHATDEMOTOTPKEY3";

export const DEMO_STAFF = [
  {
    email: "demo.admin@example.org",
    name: "Alex Admin (demo)",
    password: "granite orchard lantern",
    roles: ["admin"],
  },
  {
    email: "demo.coordinator@example.org",
    name: "Casey Coordinator (demo)",
    password: "saffron harbour kettle",
    roles: ["coordinator"],
  },
  {
    email: "demo.clinician@example.org",
    name: "Robin Clinician (demo)",
    password: "willow quartz meadow",
    roles: ["clinician"],
  },
  {
    email: "demo.eventstaff@example.org",
    name: "Sam Event Staff (demo)",
    password: "thistle lantern bicycle",
    roles: ["event_staff"],
  },
] as const satisfies readonly {
  email: string;
  name: string;
  password: string;
  roles: readonly StaffRole[];
}[];

function recoveryCodes(): string[] {
  return Array.from({ length: 10 }, () => {
    const text = crypto.randomBytes(5).toString("hex").toUpperCase();
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
}

/** Staff accounts with two-factor sign-in already on, stored as better-auth stores them. */
export async function seedDemoStaff(tx: Db, now: Date) {
  for (const person of DEMO_STAFF) {
    const id = crypto.randomUUID();
    await tx.insert(user).values({
      id,
      email: person.email,
      name: person.name,
      emailVerified: true,
      twoFactorEnabled: true,
      createdAt: now,
      updatedAt: now,
    });
    await tx.insert(account).values({
      id: crypto.randomUUID(),
      userId: id,
      providerId: "credential",
      accountId: id,
      password: await hashPassword(person.password),
      createdAt: now,
      updatedAt: now,
    });
    await tx.insert(userRole).values(person.roles.map((role) => ({ userId: id, role })));
    await tx.insert(twoFactor).values({
      id: crypto.randomUUID(),
      userId: id,
      // better-auth reads a "base32:" secret as a key typed from another app.
      secret: await symmetricEncrypt({ key: serverSecret(), data: `base32:${DEMO_TOTP_KEY}` }),
      backupCodes: await symmetricEncrypt({
        key: serverSecret(),
        data: JSON.stringify(recoveryCodes()),
      }),
      verified: true,
    });
  }
}
