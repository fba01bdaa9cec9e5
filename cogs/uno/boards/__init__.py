"""The leaderboard, the stats and the board by skill with its rating chart."""
