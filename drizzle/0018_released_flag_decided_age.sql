-- His age at the sample when the flag he was given was last decided: a changed date of birth is
-- checked against its band, not against the date it replaced (which may have been removed).
ALTER TABLE "test_result" ADD COLUMN "flag_decided_age" integer;--> statement-breakpoint
-- Results released before this and not waiting for a check: the date of birth on record now (a
-- change into another band since release would have marked them). A marked result keeps null
-- ("not on record") until a clinician's answer sets it. Plain timestamps: age() on dates would
-- count in the session's time zone.
UPDATE "test_result" AS "r"
SET "flag_decided_age" = date_part('year', age(coalesce("r"."sample_date", "e"."event_date")::timestamp, "p"."date_of_birth"::timestamp))::integer
FROM "booking" AS "b"
JOIN "event" AS "e" ON "e"."id" = "b"."event_id"
LEFT JOIN "profile" AS "p" ON "p"."user_id" = "b"."user_id"
WHERE "b"."id" = "r"."booking_id" AND "r"."released_at" IS NOT NULL AND "r"."flag_check_since" IS NULL;
