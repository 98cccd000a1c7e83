"""Constants of Composer (dm_control's `composer.constants`)."""

# The geom/site group of sites that mark sensors (touch sensor volumes and the
# like), hidden by default in the viewers.
SENSOR_SITES_GROUP = 4
