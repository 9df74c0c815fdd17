-- Issue 13: the filing roster (申报清册) and its sync (filled in by the roster work).
SELECT 1;
