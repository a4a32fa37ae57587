CREATE TYPE "public"."event_category" AS ENUM('community', 'freemasons', 'corporate');--> statement-breakpoint
CREATE TABLE "event" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"product_id" uuid NOT NULL,
	"price_pence" integer,
	"payment_required" boolean,
	"event_date" date NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"session_duration" integer NOT NULL,
	"total_spaces" integer NOT NULL,
	"places_per_slot" integer DEFAULT 1 NOT NULL,
	"booked_spaces" integer DEFAULT 0 NOT NULL,
	"category" "event_category" NOT NULL,
	"exclusive_for" text,
	"is_public" boolean DEFAULT true NOT NULL,
	"contact_email" text,
	"email_template" text,
	"lab_name" text,
	"address_line_1" text NOT NULL,
	"address_line_2" text,
	"city" text NOT NULL,
	"state" text,
	"postcode" text NOT NULL,
	"country" text DEFAULT 'United Kingdom' NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_spaces_check" CHECK ("event"."booked_spaces" >= 0 AND "event"."total_spaces" >= 0),
	CONSTRAINT "event_session_check" CHECK ("event"."session_duration" > 0 AND "event"."places_per_slot" > 0),
	CONSTRAINT "event_times_check" CHECK ("event"."end_time" > "event"."start_time")
);
--> statement-breakpoint
CREATE TABLE "event_access_code" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"label" text,
	"max_uses" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screening_product" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"price_pence" integer DEFAULT 0 NOT NULL,
	"email_template" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event" ADD CONSTRAINT "event_product_id_screening_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."screening_product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_access_code" ADD CONSTRAINT "event_access_code_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_date_idx" ON "event" USING btree ("event_date");--> statement-breakpoint
CREATE UNIQUE INDEX "event_access_code_hash_key" ON "event_access_code" USING btree ("event_id","code_hash");