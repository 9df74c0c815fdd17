-- Issue 17: 商务管理 (opportunities, the public pool, work orders and templates, the data list).
-- The default role 普通员工 of existing agencies gets the everyday pages and buttons (new agencies get them from DEFAULT_STAFF_PERMS);
-- deleting, importing and editing templates stay the administrator's to grant.
UPDATE "roles" SET "perms" = "perms" || ARRAY['opportunity:list:view', 'opportunity:add', 'opportunity:followup', 'opportunity:transfer', 'opportunity:release', 'opportunity:convert', 'opportunity:pool:view', 'opportunity:pool:claim', 'workorder:list:view', 'workorder:add', 'workorder:step', 'workorder:template:view', 'customer:data:view', 'customer:data:export']::text[]
WHERE "is_default" AND NOT ("perms" @> ARRAY['opportunity:list:view']::text[]);
