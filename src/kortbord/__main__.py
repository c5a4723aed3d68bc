"""``python -m kortbord``: the same command line as the ``kortbord`` script (:func:`kortbord.cli.main`)."""

from kortbord.cli import main

if __name__ == "__main__":
    main()
