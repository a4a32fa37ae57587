-- A released result whose flag a clinician should look at again: his date of birth changed after
-- release and the flag suggested for his age now is not the one he was given.
ALTER TABLE "test_result" ADD COLUMN "flag_check_since" timestamp with time zone;