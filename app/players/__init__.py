"""Players' pages: profiles (games, results, ratings) and the inbox."""
