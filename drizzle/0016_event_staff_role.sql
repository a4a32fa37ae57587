-- Event staff: check-in on the day, without the coordinator's power over events and money. As
-- with any value added to an enum, nothing in this migration (run in one transaction) uses it.
ALTER TYPE "public"."staff_role" ADD VALUE 'event_staff';