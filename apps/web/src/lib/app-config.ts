/** Addresses behind Contact and Support; set VITE_CONTACT_EMAIL / VITE_SUPPORT_EMAIL when building. */
export const CONTACT_EMAIL = import.meta.env.VITE_CONTACT_EMAIL || 'contact@adpilot.example';
export const SUPPORT_EMAIL = import.meta.env.VITE_SUPPORT_EMAIL || 'support@adpilot.example';
