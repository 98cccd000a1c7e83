"""Props: small entities placed in arenas."""

from composer_tasks.props.button import Button
