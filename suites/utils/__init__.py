"""dm_control's `suite.utils`: helpers for writing suite tasks (`randomizers`)."""
