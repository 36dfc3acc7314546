-- Outbox bodies are now encrypted at rest, and SQL cannot encrypt the ones already stored in clear. They are
-- password-reset mails whose links live one hour, so they are dropped rather than kept readable.
DELETE FROM "mail_outbox";
