-- 0033_accounting_factories: placeholder reserved for a slice of issues 18/19; replaced by its owner.
SELECT 1;
