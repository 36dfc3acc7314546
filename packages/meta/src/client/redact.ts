// The redaction list is shared with the server's logger: one list for every URL and error that is logged.
export { redactText, redactUrl, SECRET_PARAMS } from '@adpilot/contracts';
