CREATE TABLE "test_result_revision" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"test_result_id" uuid NOT NULL,
	"psa_value" text,
	"unit" text NOT NULL,
	"flag" "result_flag",
	"retest_years" integer,
	"comments" text,
	"released_at" timestamp with time zone,
	"released_by" text,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"replaced_by" text NOT NULL,
	"reason" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "two_factor_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "test_result_revision" ADD CONSTRAINT "test_result_revision_test_result_id_test_result_id_fk" FOREIGN KEY ("test_result_id") REFERENCES "public"."test_result"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "test_result_revision_result_idx" ON "test_result_revision" USING btree ("test_result_id");--> statement-breakpoint
-- Earlier versions of a result are a record: like the audit log, never changed or removed.
CREATE TRIGGER "test_result_revision_no_update_or_delete" BEFORE UPDATE OR DELETE ON "test_result_revision"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_refuse_change"();
