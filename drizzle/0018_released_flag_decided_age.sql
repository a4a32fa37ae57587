-- His age at the sample when the flag he was given was last decided: a changed date of birth is
-- checked against its band, not against the date it replaced (which may have been removed).
ALTER TABLE "test_result" ADD COLUMN "flag_decided_age" integer;--> statement-breakpoint
-- Results released before this: the date of birth on record now. Any change since release into
-- another band has already marked the result (flag_check_since), and a clinician's answer sets this.
UPDATE "test_result" AS "r"
SET "flag_decided_age" = date_part('year', age(coalesce("r"."sample_date", "e"."event_date"), "p"."date_of_birth"))::integer
FROM "booking" AS "b"
JOIN "event" AS "e" ON "e"."id" = "b"."event_id"
LEFT JOIN "profile" AS "p" ON "p"."user_id" = "b"."user_id"
WHERE "b"."id" = "r"."booking_id" AND "r"."released_at" IS NOT NULL;
