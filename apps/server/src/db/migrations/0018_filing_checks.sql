-- Issue 13: declaration settings, information supplements, missed-filing checks (filled in by that work).
SELECT 1;
