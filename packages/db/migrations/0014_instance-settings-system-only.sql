-- Settings belong to no user: only the system path (the administrator's Settings, the providers' loader) reaches
-- them; the application role, which every connection runs as, has no access at all.
REVOKE ALL ON TABLE "instance_settings" FROM adpilot_app;
