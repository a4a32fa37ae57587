-- A value added to an enum cannot be used in the transaction that adds it, and drizzle runs the
-- pending migrations in one transaction: set `closed` from the application, never in a migration.
ALTER TYPE "public"."waitlist_status" ADD VALUE 'closed';