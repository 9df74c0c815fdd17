-- Every foreign key and every tenant column (agency_id, enterprise_id) gets an index that leads with it (issue 30
-- point 2): deleting a client no longer scans every charge, invoice, contract and receivable; the RLS tenant filter
-- and the 操作日志 filter by client reach an index. apps/server/test/fk-indexes.test.ts reads the catalogue and fails
-- when a new key or tenant column has none.
CREATE INDEX IF NOT EXISTS "access_log_enterprise_id_key_idx" ON "access_log" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "access_log_user_id_key_idx" ON "access_log" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "agency_applications_agency_id_key_idx" ON "agency_applications" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "agency_applications_applicant_id_key_idx" ON "agency_applications" ("applicant_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "agency_applications_reviewer_id_key_idx" ON "agency_applications" ("reviewer_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "ai_whitelist_user_id_key_idx" ON "ai_whitelist" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "announcements_publisher_id_key_idx" ON "announcements" ("publisher_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "api_keys_created_by_key_idx" ON "api_keys" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "api_keys_revoked_by_key_idx" ON "api_keys" ("revoked_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "aq_urls_updated_by_key_idx" ON "aq_urls" ("updated_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "benefit_grants_granted_by_key_idx" ON "benefit_grants" ("granted_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_accounts_agency_id_key_idx" ON "book_accounts" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_aux_items_agency_id_key_idx" ON "book_aux_items" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_balances_account_id_key_idx" ON "book_balances" ("account_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_balances_agency_id_key_idx" ON "book_balances" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_closes_closed_by_key_idx" ON "book_closes" ("closed_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_openings_account_id_key_idx" ON "book_openings" ("account_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_openings_agency_id_key_idx" ON "book_openings" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_print_clients_agency_id_key_idx" ON "book_print_clients" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_print_clients_book_id_key_idx" ON "book_print_clients" ("book_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_print_clients_enterprise_id_key_idx" ON "book_print_clients" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_run_clients_agency_id_key_idx" ON "book_run_clients" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_run_clients_book_id_key_idx" ON "book_run_clients" ("book_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "book_runs_user_id_key_idx" ON "book_runs" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "books_created_by_key_idx" ON "books" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "books_enterprise_id_key_idx" ON "books" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "charges_contract_id_key_idx" ON "charges" ("contract_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "charges_created_by_key_idx" ON "charges" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "charges_enterprise_id_key_idx" ON "charges" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "charges_revoked_by_key_idx" ON "charges" ("revoked_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_sessions_agency_id_key_idx" ON "chat_sessions" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "check_batches_user_id_key_idx" ON "check_batches" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "check_results_enterprise_id_key_idx" ON "check_results" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "content_items_created_by_key_idx" ON "content_items" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "content_progress_content_id_key_idx" ON "content_progress" ("content_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "content_views_user_id_key_idx" ON "content_views" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contract_lines_agency_id_key_idx" ON "contract_lines" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contract_lines_service_id_key_idx" ON "contract_lines" ("service_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contract_template_lines_agency_id_key_idx" ON "contract_template_lines" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contract_template_lines_service_id_key_idx" ON "contract_template_lines" ("service_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contract_templates_created_by_key_idx" ON "contract_templates" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contracts_contract_user_id_key_idx" ON "contracts" ("contract_user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contracts_created_by_key_idx" ON "contracts" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contracts_enterprise_id_key_idx" ON "contracts" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contracts_template_id_key_idx" ON "contracts" ("template_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "departments_director_user_id_key_idx" ON "departments" ("director_user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "departments_parent_id_key_idx" ON "departments" ("parent_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enterprise_attachments_agency_id_key_idx" ON "enterprise_attachments" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enterprise_attachments_uploaded_by_key_idx" ON "enterprise_attachments" ("uploaded_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enterprise_bureau_diffs_enterprise_id_key_idx" ON "enterprise_bureau_diffs" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enterprise_contacts_agency_id_key_idx" ON "enterprise_contacts" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enterprise_filing_info_enterprise_id_key_idx" ON "enterprise_filing_info" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enterprise_filing_settings_enterprise_id_key_idx" ON "enterprise_filing_settings" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enterprise_labels_agency_id_key_idx" ON "enterprise_labels" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enterprise_profiles_enterprise_id_key_idx" ON "enterprise_profiles" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enterprise_shareholders_agency_id_key_idx" ON "enterprise_shareholders" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enterprise_tax_data_enterprise_id_key_idx" ON "enterprise_tax_data" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enterprises_allocate_user_key_idx" ON "enterprises" ("allocate_user");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "enterprises_grade_id_key_idx" ON "enterprises" ("grade_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "etax_login_grants_enterprise_id_key_idx" ON "etax_login_grants" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "etax_login_grants_user_id_key_idx" ON "etax_login_grants" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "etax_sessions_enterprise_id_key_idx" ON "etax_sessions" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filed_returns_enterprise_id_key_idx" ON "filed_returns" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filed_returns_filed_by_key_idx" ON "filed_returns" ("filed_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filed_returns_paid_by_key_idx" ON "filed_returns" ("paid_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_cells_enterprise_id_key_idx" ON "filing_cells" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_confirmations_created_by_key_idx" ON "filing_confirmations" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_confirmations_enterprise_id_key_idx" ON "filing_confirmations" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_confirmations_plan_id_key_idx" ON "filing_confirmations" ("plan_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_plan_items_enterprise_id_key_idx" ON "filing_plan_items" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_plans_user_id_key_idx" ON "filing_plans" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_reminders_enterprise_id_key_idx" ON "filing_reminders" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_reminders_user_id_key_idx" ON "filing_reminders" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_run_clients_agency_id_key_idx" ON "filing_run_clients" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_run_clients_enterprise_id_key_idx" ON "filing_run_clients" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_runs_plan_id_key_idx" ON "filing_runs" ("plan_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_runs_user_id_key_idx" ON "filing_runs" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_setting_logs_enterprise_id_key_idx" ON "filing_setting_logs" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_setting_logs_user_id_key_idx" ON "filing_setting_logs" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_sync_batches_user_id_key_idx" ON "filing_sync_batches" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_sync_results_agency_id_key_idx" ON "filing_sync_results" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_sync_results_enterprise_id_key_idx" ON "filing_sync_results" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "filing_syncs_enterprise_id_key_idx" ON "filing_syncs" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "jobs_kjgc_id_key_idx" ON "jobs" ("kjgc_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invites_department_id_key_idx" ON "invites" ("department_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invites_inviter_id_key_idx" ON "invites" ("inviter_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_buyers_enterprise_id_key_idx" ON "invoice_buyers" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_lines_agency_id_key_idx" ON "invoice_lines" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_month_counts_enterprise_id_key_idx" ON "invoice_month_counts" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_month_parties_enterprise_id_key_idx" ON "invoice_month_parties" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_month_stats_enterprise_id_key_idx" ON "invoice_month_stats" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_requests_created_by_key_idx" ON "invoice_requests" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_requests_enterprise_id_key_idx" ON "invoice_requests" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_requests_invoice_id_key_idx" ON "invoice_requests" ("invoice_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_run_clients_agency_id_key_idx" ON "invoice_run_clients" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_run_clients_enterprise_id_key_idx" ON "invoice_run_clients" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_runs_user_id_key_idx" ON "invoice_runs" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_enterprise_id_key_idx" ON "invoices" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_issued_by_key_idx" ON "invoices" ("issued_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "kjgc_bindings_decided_by_key_idx" ON "kjgc_bindings" ("decided_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "kjgc_bindings_ended_by_key_idx" ON "kjgc_bindings" ("ended_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "kjgc_bindings_requested_by_key_idx" ON "kjgc_bindings" ("requested_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "kjgc_handovers_created_by_key_idx" ON "kjgc_handovers" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "lbsjc_batches_user_id_key_idx" ON "lbsjc_batches" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "lbsjc_items_enterprise_id_key_idx" ON "lbsjc_items" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "lbsjc_results_enterprise_id_key_idx" ON "lbsjc_results" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "membership_roles_agency_id_key_idx" ON "membership_roles" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "membership_roles_role_id_key_idx" ON "membership_roles" ("role_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "memberships_department_id_key_idx" ON "memberships" ("department_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "message_settings_user_id_key_idx" ON "message_settings" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_agency_id_key_idx" ON "messages" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "note_drafts_enterprise_id_key_idx" ON "note_drafts" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "note_drafts_user_id_key_idx" ON "note_drafts" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "notes_agency_id_key_idx" ON "notes" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "notes_user_id_key_idx" ON "notes" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "opportunities_contract_id_key_idx" ON "opportunities" ("contract_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "opportunities_created_by_key_idx" ON "opportunities" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "opportunities_enterprise_id_key_idx" ON "opportunities" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "opportunities_owner_id_key_idx" ON "opportunities" ("owner_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "opportunities_stage_id_key_idx" ON "opportunities" ("stage_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "opportunity_followups_agency_id_key_idx" ON "opportunity_followups" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "opportunity_followups_user_id_key_idx" ON "opportunity_followups" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "opportunity_transfers_agency_id_key_idx" ON "opportunity_transfers" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "opportunity_transfers_by_user_id_key_idx" ON "opportunity_transfers" ("by_user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "opportunity_transfers_from_user_id_key_idx" ON "opportunity_transfers" ("from_user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "opportunity_transfers_to_user_id_key_idx" ON "opportunity_transfers" ("to_user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "organisations_kjgc_dls_id_key_idx" ON "organisations" ("kjgc_dls_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "receivables_enterprise_id_key_idx" ON "receivables" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "special_permissions_user_id_key_idx" ON "special_permissions" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "station_members_agency_id_key_idx" ON "station_members" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "station_members_user_id_key_idx" ON "station_members" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tax_data_queries_user_id_key_idx" ON "tax_data_queries" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "user_last_query_user_id_key_idx" ON "user_last_query" ("user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "voucher_lines_account_id_key_idx" ON "voucher_lines" ("account_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "voucher_lines_agency_id_key_idx" ON "voucher_lines" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "voucher_rules_updated_by_key_idx" ON "voucher_rules" ("updated_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "voucher_templates_created_by_key_idx" ON "voucher_templates" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "vouchers_created_by_key_idx" ON "vouchers" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "vouchers_reviewed_by_key_idx" ON "vouchers" ("reviewed_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_deliveries_agency_id_key_idx" ON "webhook_deliveries" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_endpoints_created_by_key_idx" ON "webhook_endpoints" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_order_attachments_agency_id_key_idx" ON "work_order_attachments" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_order_attachments_uploaded_by_key_idx" ON "work_order_attachments" ("uploaded_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_order_attachments_work_order_id_key_idx" ON "work_order_attachments" ("work_order_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_order_steps_assignee_id_key_idx" ON "work_order_steps" ("assignee_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_order_steps_done_by_key_idx" ON "work_order_steps" ("done_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_order_template_services_service_id_key_idx" ON "work_order_template_services" ("service_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_order_template_steps_agency_id_key_idx" ON "work_order_template_steps" ("agency_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_order_template_steps_station_id_key_idx" ON "work_order_template_steps" ("station_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_order_templates_created_by_key_idx" ON "work_order_templates" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_orders_contract_id_key_idx" ON "work_orders" ("contract_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_orders_created_by_key_idx" ON "work_orders" ("created_by");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_orders_enterprise_id_key_idx" ON "work_orders" ("enterprise_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "work_orders_template_id_key_idx" ON "work_orders" ("template_id");
--> statement-breakpoint
-- 操作日志 by client: the client a row is about, derived from an `enterprise:<id>` target or detail.enterpriseId
-- (the expression the viewer computed per row before), stored so that the filter by client is an index walk.
ALTER TABLE "audit_log" ADD COLUMN "enterprise_id" integer GENERATED ALWAYS AS ((case when target ~ '^enterprise:[0-9]{1,9}$' then substr(target, 12)::int when detail->>'enterpriseId' ~ '^[0-9]{1,9}$' then (detail->>'enterpriseId')::int end)) STORED;
--> statement-breakpoint
CREATE INDEX "audit_log_agency_enterprise_idx" ON "audit_log" ("agency_id", "enterprise_id", "id");
--> statement-breakpoint
-- With a client column, 操作日志 joins the tables a factory reads only for the clients handed over to it
-- (migrations 0039, 0041): rows about other clients, or about no client, stay hidden from a factory. Reading
-- only; a factory still writes the rows of what it does.
CREATE POLICY "audit_log_kjgc_handover" ON "audit_log" AS RESTRICTIVE FOR SELECT TO "dzy_app"
  USING ((select app_kjgc()) is null or exists (select 1 from "kjgc_handovers" h where h."enterprise_id" = "audit_log"."enterprise_id" and h."kjgc_id" = (select app_kjgc())));
