def main() -> None:
    print("slablab demo: coming soon (see README)")


if __name__ == "__main__":
    main()
