"""dm_control's `suite.utils`: helpers for writing suite tasks (`randomizers`) and
the CMU motion capture clip converter (`parse_amc`)."""
