-- The audit log is append-only for the application.
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM dzy_app;
