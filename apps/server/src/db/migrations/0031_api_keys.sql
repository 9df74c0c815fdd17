-- 0031_api_keys: placeholder reserved for a slice of issues 18/19; replaced by its owner.
SELECT 1;
