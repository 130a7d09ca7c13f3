-- Reports are listed newest first by their number (support's queue by
-- status, a reporter's own by account): the indexes follow that order.
DROP INDEX support_reports_queue;
DROP INDEX support_reports_account;
CREATE INDEX support_reports_queue ON support_reports (status, number DESC);
CREATE INDEX support_reports_account ON support_reports (account_id, number DESC);
