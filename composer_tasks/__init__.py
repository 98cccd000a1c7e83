"""composer_tasks: author MuJoCo reinforcement-learning tasks by composing entities."""
