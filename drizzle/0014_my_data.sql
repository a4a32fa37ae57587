CREATE TABLE "retained_result" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"test_result_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"date_of_birth" date,
	"nhs_number" text,
	"sample_id" text,
	"sample_date" date,
	"account_erased_at" timestamp with time zone NOT NULL,
	"retain_until" timestamp with time zone NOT NULL,
	CONSTRAINT "retained_result_test_result_id_unique" UNIQUE("test_result_id")
);
--> statement-breakpoint
ALTER TABLE "consent" ALTER COLUMN "answers" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "consent" ADD COLUMN "answers_erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "retained_result" ADD CONSTRAINT "retained_result_test_result_id_test_result_id_fk" FOREIGN KEY ("test_result_id") REFERENCES "public"."test_result"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "retained_result_until_idx" ON "retained_result" USING btree ("retain_until");