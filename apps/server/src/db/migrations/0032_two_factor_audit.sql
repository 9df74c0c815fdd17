-- 0032_two_factor_audit: placeholder reserved for a slice of issues 18/19; replaced by its owner.
SELECT 1;
