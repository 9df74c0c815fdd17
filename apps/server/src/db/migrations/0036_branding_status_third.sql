-- 0036_branding_status_third: placeholder reserved for a slice of issues 18/19; replaced by its owner.
SELECT 1;
