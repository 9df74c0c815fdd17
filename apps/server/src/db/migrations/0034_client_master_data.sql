-- 0034_client_master_data: placeholder reserved for a slice of issues 18/19; replaced by its owner.
SELECT 1;
