import { z } from "zod";
import { config } from "#app/config.server";
import { openConfiguredDatabase } from "#app/db/client.server";
import { emailField } from "#app/domain/fields";
import { loadServerSecret } from "#app/services/secrets.server";
import { inviteStaff } from "#app/services/staff.server";

/**
 * `npm run create-admin -- --email …`: makes a one-time set-up link for the first admin. No
 * password is given on the command line: the person chooses one, and sets up two-factor sign-in,
 * when they open the link.
 */
export async function createAdminFromCommandLine(argv: string[]): Promise<number> {
  const index = argv.indexOf("--email");
  const parsed = z
    .object({ email: emailField("Give an address: --email someone@example.org") })
    .safeParse({
      email: index >= 0 ? (argv[index + 1] ?? "") : "",
    });
  if (!parsed.success) {
    process.stderr.write(`${parsed.error.issues[0]?.message ?? "Give an e-mail address"}\n`);
    return 2;
  }
  const settings = config();
  const opened = openConfiguredDatabase(settings);
  try {
    await opened.migrate();
    await loadServerSecret(opened.db, settings.AUTH_SECRET);
    const { link, expiresAt } = await inviteStaff(
      opened.db,
      { id: null, email: null, clientAddress: "command line" },
      { email: parsed.data.email, roles: ["admin"], baseUrl: settings.publicBaseUrl },
    );
    process.stdout.write(
      [
        `Set-up link for ${parsed.data.email} (admin). It works once, until ${expiresAt.toISOString()}:`,
        "",
        link,
        "",
      ].join("\n"),
    );
    return 0;
  } finally {
    await opened.close();
  }
}
