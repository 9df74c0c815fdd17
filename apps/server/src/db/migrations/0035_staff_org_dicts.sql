-- 0035_staff_org_dicts: placeholder reserved for a slice of issues 18/19; replaced by its owner.
SELECT 1;
