-- A released result whose flag a clinician should look at again: his date of birth changed after
-- release into another age band than the one his flag was decided for.
ALTER TABLE "test_result" ADD COLUMN "flag_check_since" timestamp with time zone;